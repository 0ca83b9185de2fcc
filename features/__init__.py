"""Pair → numbers: feature families as scikit-learn transformers."""

