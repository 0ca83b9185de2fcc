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

TREE_LEAF = -1  # sklearn.tree._tree's marker of a leaf's children


def _nodes(what: str, left, right, leaf, features, n_features: int | None, thresholds, values) -> str | None:
    """A proper binary tree rooted at node 0 (internal nodes have two children, each after its parent, as
    scikit-learn builds them: so no cycle; every node but the root has one parent), splitting on features in
    ``0..n_features - 1`` (at least 0 if None) at no NaN threshold, its values finite; ``what`` names it."""
    n = len(leaf)
    if n == 0:
        return f"{what} of no node"
    parents = np.flatnonzero(~leaf)
    children = np.concatenate([left[parents], right[parents]]).astype(np.int64)
    above = np.concatenate([parents, parents])
    if children.size and (np.any(children <= above) or np.any(children >= n)):
        return f"{what} whose child indices point outside it or back up"
    if children.size != n - 1 or np.any(np.bincount(children, minlength=n)[1:] != 1):
        return f"{what} whose nodes are not one tree (a node with two parents, or none)"
    split = features[parents]
    if np.any(split < 0) or (n_features is not None and np.any(split >= n_features)):
        return f"{what} splitting on a feature outside 0..{'?' if n_features is None else n_features - 1}"
    if np.any(np.isnan(thresholds[parents])) or not np.all(np.isfinite(values)):
        return f"{what} with NaN thresholds or non-finite values"
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
    return _nodes("a tree", left, right, leaf, feature, n_features, threshold, value)


def check_predictor(predictor, width: int | None) -> str | None:
    """A histogram gradient boosting ``TreePredictor`` (its ``nodes`` record array)."""
    nodes = getattr(predictor, "nodes", None)
    if not isinstance(nodes, np.ndarray) or nodes.dtype != PREDICTOR_RECORD_DTYPE or nodes.ndim != 1:
        return "a boosting tree whose nodes are not the predictor's record array"
    if np.any(nodes["is_leaf"] > 1):
        return "a boosting tree node neither leaf nor split"
    if np.any(nodes["is_categorical"]):
        return "a boosting tree with categorical splits, which no model of this suite has"
    return _nodes("a boosting tree", nodes["left"], nodes["right"], nodes["is_leaf"].astype(bool), nodes["feature_idx"],
                  width, nodes["num_threshold"], nodes["value"])


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
