"""The official Python SDK (`vital`, github.com/tryVital/vital-python) read from a checkout.

`VITAL_PYTHON_SRC` names a checkout's `src` folder (the SDK is imported from there), or the root
of a checkout whose SDK is installed (`pip install -e`). Its `reference.md` (every method with a
usage example) is read from that folder or its parent. Nothing of the SDK is copied here.
"""

from __future__ import annotations

import ast
import os
import pathlib
import re
import sys
import types
from dataclasses import dataclass
from importlib import metadata
from typing import Any

ENV = "VITAL_PYTHON_SRC"


@dataclass(frozen=True)
class SdkMethod:
    name: str  # "user.get"
    usage: str  # the reference's example, imports and `client = Vital(...)` included


@dataclass(frozen=True)
class Checkout:
    src: pathlib.Path
    reference: pathlib.Path
    version: str


def find_checkout() -> Checkout | str:
    """The checkout `VITAL_PYTHON_SRC` names, or the one-line reason there is none."""
    value = os.environ.get(ENV)
    if not value:
        return f"{ENV} is not set (a vital-python checkout's src folder; see docs/other-languages.md)"
    src = pathlib.Path(value).expanduser().absolute()
    reference = next((p for p in (src / "reference.md", src.parent / "reference.md") if p.is_file()), None)
    if reference is None:
        return f"{ENV}={value}: no reference.md there or in its parent (a vital-python checkout has one)"
    return Checkout(src=src, reference=reference, version=_version(reference.parent))


def _version(root: pathlib.Path) -> str:
    """The SDK's version from the checkout's pyproject.toml ([tool.poetry] version), or 'unknown'."""
    try:
        found = re.search(r'^version\s*=\s*"([^"]+)"', (root / "pyproject.toml").read_text(), re.M)
    except OSError:
        return "unknown"
    return found.group(1) if found else "unknown"


def import_sdk(checkout: Checkout) -> types.ModuleType:
    """`import vital` from the checkout. A checkout that is not installed has no package metadata,
    which `vital/version.py` reads; its version is then the pyproject.toml's."""
    if (checkout.src / "vital" / "__init__.py").is_file() and str(checkout.src) not in sys.path:
        sys.path.insert(0, str(checkout.src))
    try:
        metadata.version("vital")
    except metadata.PackageNotFoundError:
        version = types.ModuleType("vital.version")
        version.__version__ = checkout.version  # type: ignore[attr-defined]
        sys.modules["vital.version"] = version
    import vital

    return vital


def sdk_methods(reference: pathlib.Path) -> list[SdkMethod]:
    """Every `client.<group>.<method>` of reference.md with its ```python usage example."""
    pattern = re.compile(r"<summary><code>client\.([\w.]+)\.<a [^>]*>(\w+)</a>[\s\S]*?```python\n([\s\S]*?)```")
    return [SdkMethod(f"{group}.{name}", usage.strip()) for group, name, usage in pattern.findall(reference.read_text())]


class _Concrete(ast.NodeTransformer):
    """Placeholder strings ('user_id') become the world's values; the example's client gets the
    sandbox's URL as `base_url` (its only change) and a real key."""

    def __init__(self, values: dict[str, str], missing: dict[str, str]) -> None:
        self.values = values
        self.missing = missing

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str) and node.value in self.values:
            return ast.copy_location(ast.Constant(self.values[node.value]), node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "Vital":
            node.keywords = [k for k in node.keywords if k.arg != "api_key"] + [
                ast.keyword("api_key", ast.Name("API_KEY", ast.Load())),
                ast.keyword("base_url", ast.Name("BASE_URL", ast.Load())),
            ]
        elif _is_sdk_call(node.func):
            given = {k.arg for k in node.keywords}
            for name, source in self.missing.items():
                if name not in given:
                    node.keywords.append(ast.keyword(name, ast.parse(source, mode="eval").body))
        return node


def _is_sdk_call(func: ast.expr) -> bool:
    """`client.<group>.<method>`"""
    owner = func.value if isinstance(func, ast.Attribute) else None
    return isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name) and owner.value.id == "client"


def run_usage(usage: str, values: dict[str, str], api_key: str, base_url: str, missing: dict[str, str] | None = None) -> Any:
    """Runs a usage example with placeholders replaced (and `missing`: keyword arguments, as Python
    source, that the example leaves out though the method requires them); answers the value of
    its last expression."""
    tree = _Concrete(values, missing or {}).visit(ast.parse(usage))
    last = tree.body[-1]
    if isinstance(last, ast.Expr):
        tree.body[-1] = ast.copy_location(ast.Assign([ast.Name("result", ast.Store())], last.value), last)
    ast.fix_missing_locations(tree)
    scope: dict[str, Any] = {"API_KEY": api_key, "BASE_URL": base_url}
    exec(compile(tree, "<reference.md usage>", "exec"), scope)  # the SDK's own published example
    result = scope.get("result")
    # Binary answers (PDFs) are generators: nothing is sent until they are read.
    if isinstance(result, types.GeneratorType):
        result = b"".join(result)
    return result
