"""Systems as scikit-learn regressors over text pairs, and the runner that writes official outputs."""
from .base import PairRegressor, check_pairs
from .model_file import load_model, save_model
from .random_baseline import RandomBaseline
from .registry import make_system, system_names
from .run import run_system
from .subset_models import SubsetModels
from .token_cosine import TokenCosine, token_cosine, token_cosine_many

__all__ = ["PairRegressor", "RandomBaseline", "SubsetModels", "TokenCosine", "check_pairs", "load_model", "make_system",
           "run_system", "save_model", "system_names", "token_cosine", "token_cosine_many"]
