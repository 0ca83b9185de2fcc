"""The string measures in one place: longest common substring, Greedy String Tiling, and the plain
textbook versions (:mod:`semsts.features.strings.reference`) the fast ones are tested against."""
from .gst import gst_coverage, gst_similarity, gst_similarity_many, gst_tiles
from .lcs import lcs_length, lcs_similarity, lcs_similarity_many

__all__ = ["gst_coverage", "gst_similarity", "gst_similarity_many", "gst_tiles", "lcs_length", "lcs_similarity",
           "lcs_similarity_many"]
