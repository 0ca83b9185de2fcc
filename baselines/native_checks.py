"""The structures a loaded model hands to compiled code, checked before any prediction uses them.

scikit-learn's trees (``sklearn.tree._tree.Tree``, the histogram boosting's ``TreePredictor``) and libsvm's
arrays are followed by index in C: a child, feature or support-vector index out of range reads outside the
arrays (a crash, not an error) and a child pointing back up loops for ever. skops refuses these types by
default for that reason; a model file may hold them, so each one is checked to be a proper tree (or a
consistent libsvm model) whose indices stay in range. Each function returns what is wrong, or None. This is the
one module that reads scikit-learn's private modules: their classes and record layouts are what is checked.
"""
from __future__ import annotations

import numpy as np
from sklearn.ensemble._hist_gradient_boosting.common import PREDICTOR_RECORD_DTYPE
from sklearn.ensemble._hist_gradient_boosting.predictor import TreePredictor
from sklearn.svm._base import LIBSVM_IMPL, BaseLibSVM
from sklearn.tree._tree import Tree

TREE_LEAF, TREE_UNDEFINED = -1, -2  # sklearn.tree._tree's markers of a leaf's children and feature


def _tree_shape(left: np.ndarray, right: np.ndarray, leaf: np.ndarray) -> str | None:
    """A proper binary tree rooted at node 0: internal nodes have two children, each child comes after its
    parent (as scikit-learn builds them: so no cycle), and every node but the root has exactly one parent."""
    n = len(leaf)
    if n == 0:
        return "a tree of no node"
    parents = np.flatnonzero(~leaf)
    children = np.concatenate([left[parents], right[parents]]).astype(np.int64)
    above = np.concatenate([parents, parents])
    if children.size and (np.any(children <= above) or np.any(children >= n)):
        return "a tree whose child indices point outside it or back up"
    if children.size != n - 1 or np.any(np.bincount(children, minlength=n)[1:] != 1):
        return "nodes that are not one tree (a node with two parents, or none)"
    return None


def check_tree(tree, width: int | None) -> str | None:
    """A ``sklearn.tree._tree.Tree``; ``width``: the number of features it is applied to, if known."""
    try:
        n, n_features = int(tree.node_count), int(tree.n_features)
        left, right, feature = tree.children_left, tree.children_right, tree.feature
        threshold, value = tree.threshold, tree.value
        value_shape = (n, int(tree.n_outputs), int(tree.max_n_classes))
    except (AttributeError, TypeError, ValueError) as exc:
        return f"a tree that cannot be read ({type(exc).__name__})"
    if width is not None and n_features != width:
        return f"a tree over {n_features} features where {width} come in"
    if any(len(a) != n for a in (left, right, feature, threshold)) or value.shape != value_shape:
        return "a tree whose arrays do not match its node count"
    leaf = left == TREE_LEAF
    if not np.array_equal(leaf, right == TREE_LEAF):
        return "a tree node with one child"
    wrong = _tree_shape(left, right, leaf)
    if wrong:
        return wrong
    inner = ~leaf
    if np.any(feature[inner] < 0) or np.any(feature[inner] >= n_features) or np.any(feature[leaf] != TREE_UNDEFINED):
        return f"a tree splitting on a feature outside 0..{n_features - 1}"
    if np.any(np.isnan(threshold[inner])) or not np.all(np.isfinite(value)):
        return "a tree with NaN thresholds or non-finite values"
    return None


def check_predictor(predictor, width: int | None) -> str | None:
    """A histogram gradient boosting ``TreePredictor`` (its ``nodes`` record array)."""
    nodes = getattr(predictor, "nodes", None)
    if not isinstance(nodes, np.ndarray) or nodes.dtype != PREDICTOR_RECORD_DTYPE or nodes.ndim != 1:
        return "a boosting tree whose nodes are not the predictor's record array"
    leaf = nodes["is_leaf"]
    if np.any(leaf > 1):
        return "a boosting tree node neither leaf nor split"
    leaf = leaf.astype(bool)
    wrong = _tree_shape(nodes["left"], nodes["right"], leaf)
    if wrong:
        return "a boosting tree: " + wrong
    inner, features = ~leaf, nodes["feature_idx"]
    if np.any(nodes["is_categorical"]):
        return "a boosting tree with categorical splits, which no model of this suite has"
    if np.any(features[inner] < 0) or (width is not None and np.any(features[inner] >= width)):
        return f"a boosting tree splitting on a feature outside 0..{'?' if width is None else width - 1}"
    if np.any(np.isnan(nodes["num_threshold"][inner])) or not np.all(np.isfinite(nodes["value"])):
        return "a boosting tree with NaN thresholds or non-finite values"
    return None


def check_libsvm(model, width: int | None) -> str | None:
    """An SVM's arrays as libsvm reads them: one row per support vector, coefficients and intercepts to match."""
    if "support_" not in vars(model):  # not fitted: a template, never predicted with
        return None
    try:
        support, vectors, n_support = model.support_, model.support_vectors_, model._n_support
        dual, intercept = model._dual_coef_, model._intercept_
        kernel, impl, sparse = model.kernel, model._impl, model._sparse
    except AttributeError as exc:
        return f"an SVM without {exc.name or 'its arrays'}"
    arrays = (support, vectors, n_support, dual, intercept, model._probA, model._probB)
    if not all(isinstance(a, np.ndarray) for a in arrays) or sparse is not False:
        return "an SVM whose support vectors are not dense arrays"
    if kernel not in ("linear", "poly", "rbf", "sigmoid") or impl not in LIBSVM_IMPL:
        return "an SVM of an unknown kind or kernel"
    classes, count = n_support.shape[0] if n_support.ndim == 1 else 0, support.shape[0] if support.ndim == 1 else -1
    pairs = classes * (classes - 1) // 2
    if (classes < 2 or vectors.ndim != 2 or vectors.shape[0] != count or dual.shape != (classes - 1, count)
            or intercept.shape != (pairs,) or any(p.size not in (0, pairs) for p in (model._probA, model._probB))
            or (LIBSVM_IMPL.index(impl) < 2 and int(n_support.sum()) != count)):
        return "an SVM whose support vectors, coefficients and intercepts do not match"
    if width is not None and vectors.shape[1] != width:
        return f"an SVM over {vectors.shape[1]} features where {width} come in"
    return None


def check(obj, width: int | None) -> str | None:
    """What is wrong with ``obj`` if it is a structure compiled code follows by index (None if it is sound, or none);
    ``width``: the number of features it is applied to, if known."""
    for kind, checker in ((Tree, check_tree), (TreePredictor, check_predictor), (BaseLibSVM, check_libsvm)):
        if isinstance(obj, kind):
            return checker(obj, width)
    return None
