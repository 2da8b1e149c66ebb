#!/usr/bin/env python3
"""python-chess's own test suite, run with ``bitboards`` in ``chess``'s place.

The suite is python-chess's ``test.py``, from its source distribution on
PyPI, fetched when this runs (``pip download``): python-chess is GPL, and
none of its code is kept in this repository. Its tests run in a child
process, with ``sys.modules["chess"]`` (and ``chess.pgn``, ``chess.polyglot``,
``chess.svg``, ``chess.engine``, ``chess.syzygy``) being ``bitboards``' modules.
A submodule ``bitboards`` does not have is a stub whose names fail at use,
so that only the tests that need it fail. The tests in scope are the
classes this package means to cover (``SCOPE``: every class but the chess
variants' and Gaviota's, ``OUT_OF_SCOPE``): 234 tests. test.py reads
its data (books, PGN files, EPD suites, Syzygy tables) from the sdist's
``data/``, relative to its working directory: the sdist ships the 3- and
4-piece Syzygy tables (and KBNvK...) its tests use, the same set as the
repository's tests/data/syzygy; the tests needing 5- or 6-piece tables
skip, and a skip counts as not passed. python-chess itself passes 225 of
the 234 here: 3 need Crafty (not packaged by Debian), 1 Fairy-Stockfish, 5
Syzygy tables of five pieces or of the suicide variant.

Usage (from the repository root, with the package installed in the venv)::

    target/venv/bin/python bindings/python/tests/python_chess_suite.py
    ... --failures          # and why each failing test failed
    ... --write-counts      # store this run's counts as the floor CI keeps
    ... --module chess      # python-chess itself (225 of 234 here)
    ... --sdist DIR_OR_TARBALL   # an sdist already downloaded

``test_python_chess_suite.py`` runs it under pytest, and fails when any
class's count falls below the one stored for it in
``python_chess_suite_count.txt`` (a class losing a test is not hidden by
another gaining one).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import types
from pathlib import Path
from typing import Dict, List, Optional, Tuple

VERSION = "1.11.2"

# The classes in scope, in test.py's order; None: every test of the class.
SCOPE: Dict[str, Optional[List[str]]] = {
    "SquareTestCase": None,
    "MoveTestCase": None,
    "PieceTestCase": None,
    "BoardTestCase": None,
    "LegalMoveGeneratorTestCase": None,
    "BaseBoardTestCase": None,
    "SquareSetTestCase": None,
    "PolyglotTestCase": None,
    "PgnTestCase": None,
    "EngineTestCase": None,
    "SyzygyTestCase": None,
    "SvgTestCase": None,
}
EXPECTED_TOTAL = 234

# test.py's classes left out of scope: the chess variants (``chess.variant``,
# which this package does not have) and Gaviota (another tablebase format).
# Every other class of test.py must be in SCOPE: the child says so when
# test.py has a class that neither names.
OUT_OF_SCOPE = {
    "NativeGaviotaTestCase", "GaviotaTestCase", "SuicideTestCase", "AtomicTestCase",
    "RacingKingsTestCase", "HordeTestCase", "ThreeCheckTestCase", "CrazyhouseTestCase",
    "GiveawayTestCase",
}

# python-chess's submodules and what stands in for each.
SUBMODULES = ["pgn", "polyglot", "svg", "engine", "syzygy", "variant", "gaviota"]

COUNT_FILE = Path(__file__).with_name("python_chess_suite_count.txt")

# Seconds: one test, and the whole child process.
TEST_TIMEOUT = 30.0
RUN_TIMEOUT = 150.0


class FetchError(RuntimeError):
    """The source distribution could not be downloaded or unpacked."""


def fetch_sdist(dest: Path, python: str = sys.executable) -> Path:
    """Downloads python-chess's sdist into ``dest`` and unpacks it there;
    returns the unpacked directory (which holds ``test.py`` and ``data/``)."""
    dest.mkdir(parents=True, exist_ok=True)
    command = [
        python, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
        "--no-binary", ":all:", "--no-deps", f"chess=={VERSION}", "-d", str(dest),
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise FetchError(f"pip download failed: {error}") from error
    if done.returncode != 0:
        raise FetchError(f"pip download failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    tarballs = sorted(dest.glob(f"chess-{VERSION}.tar.gz"))
    if not tarballs:
        raise FetchError(f"pip download left no chess-{VERSION}.tar.gz in {dest}")
    return unpack(tarballs[0], dest)


def unpack(tarball: Path, dest: Path) -> Path:
    """Unpacks an sdist tarball into ``dest``; returns its top directory."""
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            name = Path(member.name)
            if name.is_absolute() or ".." in name.parts or not (member.isfile() or member.isdir()):
                raise FetchError(f"unexpected member in {tarball.name}: {member.name}")
        archive.extractall(dest)
    root = dest / f"chess-{VERSION}"
    if not (root / "test.py").is_file():
        raise FetchError(f"{tarball.name} has no chess-{VERSION}/test.py")
    return root


def locate_sdist(path: Path, scratch: Path) -> Path:
    """An unpacked sdist directory from a directory or a tarball."""
    if path.is_dir():
        if (path / "test.py").is_file():
            return path
        tarballs = sorted(path.glob(f"chess-{VERSION}.tar.gz"))
        if tarballs:
            return unpack(tarballs[0], scratch)
        raise FetchError(f"{path} has neither test.py nor chess-{VERSION}.tar.gz")
    return unpack(path, scratch)


# ---- the child process: runs test.py's tests in scope ----

class _Stub(types.ModuleType):
    """A python-chess submodule ``bitboards`` lacks: any name of it fails at use."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        if _Alias.loading:
            return _placeholder(f"{self.__name__}.{name}")
        raise AttributeError(f"bitboards has no module {self.__name__} (python-chess's {name})")


class _Alias(types.ModuleType):
    """``chess`` (or ``chess.X``) as the test file sees it: the names of
    ``bitboards`` (or ``bitboards.X``). While test.py is being loaded, a name
    the module lacks is a placeholder (so that test.py's decorators and
    other load-time uses do not stop the loading); afterwards, it is an
    AttributeError, which fails the test that uses it."""

    loading = True

    def __init__(self, name: str, target: types.ModuleType, parent: str = ""):
        super().__init__(name)
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_prefix", name)

    def __getattr__(self, name: str):
        submodule = sys.modules.get(f"{self._prefix}.{name}")
        if submodule is not None:
            return submodule
        try:
            return getattr(self._target, name)
        except AttributeError:
            if name.startswith("__") or not _Alias.loading:
                raise
            return _placeholder(f"{self._prefix}.{name}")

    def __setattr__(self, name: str, value) -> None:
        setattr(self._target, name, value)

    def __dir__(self):
        return dir(self._target)


def _placeholder(qualname: str) -> type:
    """An exception class standing for a missing name used at load time:
    ``except`` clauses accept it; making one raises AttributeError."""

    def __new__(cls, *args, **kwargs):
        raise AttributeError(f"bitboards has no {qualname}")

    return type(qualname.rsplit(".", 1)[-1], (Exception,), {"__new__": __new__})


def _install_modules(module: str) -> Dict[str, str]:
    """sys.modules' ``chess`` and submodules for ``module`` (``bitboards``,
    or ``chess`` for python-chess itself); returns what each one is."""
    what: Dict[str, str] = {}
    if module == "chess":
        import chess  # noqa: F401
        for sub in SUBMODULES:
            importlib.import_module(f"chess.{sub}")
            what[f"chess.{sub}"] = f"chess.{sub}"
        return what
    root = importlib.import_module(module)
    sys.modules["chess"] = _Alias("chess", root)
    what["chess"] = module
    for sub in SUBMODULES:
        name = f"chess.{sub}"
        try:
            target = importlib.import_module(f"{module}.{sub}")
        except ImportError as error:
            if getattr(error, "name", None) not in (f"{module}.{sub}", None):
                # The submodule exists but fails to import: say so.
                what[name] = f"stub ({module}.{sub} fails to import: {error})"
            else:
                what[name] = "stub (missing)"
            sys.modules[name] = _Stub(name)
            continue
        sys.modules[name] = _Alias(name, target)
        what[name] = f"{module}.{sub}"
    return what


def _load_test_module(path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("python_chess_test", path)
    assert spec is not None and spec.loader is not None
    test_module = importlib.util.module_from_spec(spec)
    sys.modules["python_chess_test"] = test_module
    _Alias.loading = True
    try:
        spec.loader.exec_module(test_module)
    finally:
        _Alias.loading = False
    return test_module


class _TestTimeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise _TestTimeout(f"no result in {TEST_TIMEOUT:g} s")


def child(sdist: Path, module: str, out: Path) -> int:
    """Runs the tests in scope, one JSON line each to ``out``."""
    import logging
    import traceback
    import unittest

    os.chdir(sdist)  # test.py opens data/... relative to its cwd
    with open(out, "w", buffering=1) as results:
        def emit(record: dict) -> None:
            results.write(json.dumps(record) + "\n")

        emit({"modules": _install_modules(module)})
        try:
            test_module = _load_test_module(sdist / "test.py")
        except BaseException:
            emit({"load_error": traceback.format_exc()})
            return 1

        # test.py's own main fails a test that logs an error.
        handler = test_module.RaiseLogHandler()
        handler.setLevel(logging.ERROR)
        logging.getLogger().addHandler(handler)

        loader = unittest.TestLoader()
        classes = {name for name, value in vars(test_module).items()
                   if isinstance(value, type) and issubclass(value, unittest.TestCase)
                   and value.__module__ == test_module.__name__}
        unnamed = sorted(classes - set(SCOPE) - OUT_OF_SCOPE)
        if unnamed:
            emit({"scope_error": f"test.py's {unnamed} are neither in scope nor left out"})
        tests: List[Tuple[str, str]] = []
        for class_name, only in SCOPE.items():
            case = getattr(test_module, class_name)
            names = loader.getTestCaseNames(case)
            if only is not None:
                missing = sorted(set(only) - set(names))
                if missing:
                    emit({"scope_error": f"{class_name} has no {missing}"})
                names = [name for name in names if name in only]
            tests.extend((class_name, name) for name in names)
        emit({"scope": tests})

        signal.signal(signal.SIGALRM, _on_alarm)
        for class_name, name in tests:
            case = getattr(test_module, class_name)
            result = unittest.TestResult()
            started = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, TEST_TIMEOUT)
            try:
                case(name).run(result)
            except _TestTimeout as error:  # outside the test's own frames
                result.errors.append((None, str(error)))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            seconds = time.perf_counter() - started
            if result.errors:
                outcome, detail = "error", result.errors[0][1]
            elif result.failures:
                outcome, detail = "fail", result.failures[0][1]
            elif result.skipped:
                outcome, detail = "skip", result.skipped[0][1]
            elif result.unexpectedSuccesses or result.expectedFailures:
                outcome, detail = "fail", "expected failure"
            elif result.testsRun:
                outcome, detail = "pass", ""
            else:
                outcome, detail = "error", "not run"
            emit({"class": class_name, "test": name, "outcome": outcome,
                  "detail": detail[-3000:], "seconds": round(seconds, 3)})
        emit({"done": True})
    return 0


# ---- the parent: runs the child and counts ----

class SuiteRun:
    """One run's results: ``outcomes[(class, test)] = (outcome, detail)``."""

    def __init__(self) -> None:
        self.modules: Dict[str, str] = {}
        self.scope: List[Tuple[str, str]] = []
        self.outcomes: Dict[Tuple[str, str], Tuple[str, str]] = {}
        self.problems: List[str] = []
        self.seconds = 0.0
        self.module = "bitboards"

    def counts(self) -> Dict[str, Tuple[int, int]]:
        """``{class: (passed, total)}`` in SCOPE's order, and ``"total"``."""
        counts: Dict[str, List[int]] = {name: [0, 0] for name in SCOPE}
        for class_name, test in self.scope:
            outcome = self.outcomes.get((class_name, test), ("not run", ""))[0]
            counts[class_name][1] += 1
            counts[class_name][0] += outcome == "pass"
        total = [sum(c[0] for c in counts.values()), sum(c[1] for c in counts.values())]
        result = {name: (c[0], c[1]) for name, c in counts.items()}
        result["total"] = (total[0], total[1])
        return result

    def table(self) -> str:
        lines = [f"python-chess {VERSION} test.py against {self.module} ({self.seconds:.1f} s):"]
        for name, (passed, total) in self.counts().items():
            lines.append(f"  {name:28} {passed:4}/{total}")
        for problem in self.problems:
            lines.append(f"  ! {problem}")
        return "\n".join(lines)


def run_suite(sdist: Path, module: str = "bitboards", python: str = sys.executable,
              timeout: float = RUN_TIMEOUT, env: Optional[Dict[str, str]] = None) -> SuiteRun:
    """Runs test.py's tests in scope in a child process (at most ``timeout``
    seconds; the tests without a result by then count as failed)."""
    run = SuiteRun()
    run.module = module
    env = dict(os.environ if env is None else env)
    # test.py starts "stockfish" from PATH; Debian puts it in /usr/games.
    if shutil.which("stockfish", path=env.get("PATH")) is None and os.path.exists("/usr/games/stockfish"):
        env["PATH"] = env.get("PATH", os.defpath) + os.pathsep + "/usr/games"
    with tempfile.TemporaryDirectory(prefix="python-chess-suite-") as scratch:
        out = Path(scratch) / "results.jsonl"
        command = [python, str(Path(__file__).resolve()), "--child",
                   "--sdist", str(sdist.resolve()), "--module", module, "--out", str(out)]
        started = time.perf_counter()
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        try:
            output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            run.problems.append(f"the run took more than {timeout:g} s: stopped; tests without a result failed")
        run.seconds = time.perf_counter() - started
        done = False
        if out.exists():
            for line in out.read_text().splitlines():
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if "modules" in record:
                    run.modules = record["modules"]
                elif "scope" in record:
                    run.scope = [tuple(test) for test in record["scope"]]
                elif "class" in record:
                    run.outcomes[(record["class"], record["test"])] = (record["outcome"], record["detail"])
                elif "load_error" in record:
                    run.problems.append("test.py failed to load:\n" + record["load_error"])
                elif "scope_error" in record:
                    run.problems.append(record["scope_error"])
                elif "done" in record:
                    done = True
        if not done and process.returncode not in (None, 0) or not run.scope:
            tail = output.decode(errors="replace")[-3000:] if output else ""
            run.problems.append(f"the child process exited with {process.returncode}: {tail}")
    return run


# ---- what the failing tests need: python-chess's names bitboards lacks ----

# python-chess's classes (by module and name) and bitboards' counterparts.
# (BaseBoard's are Board's too, and PseudoLegalMoveGenerator's are
# LegalMoveGenerator's: a missing class is a need of its own, chess.BaseBoard.)
_CLASSES = [
    ("", "Board"), ("", "Move"), ("", "Piece"), ("", "SquareSet"), ("", "LegalMoveGenerator"), ("", "Outcome"),
    ("pgn", "Game"), ("pgn", "GameNode"), ("pgn", "ChildNode"), ("pgn", "Headers"),
    ("pgn", "BaseVisitor"), ("pgn", "StringExporter"), ("pgn", "FileExporter"), ("pgn", "GameBuilder"),
    ("syzygy", "Tablebase"), ("polyglot", "MemoryMappedReader"), ("svg", "Arrow"),
    ("engine", "SimpleEngine"), ("engine", "PovScore"), ("engine", "Cp"), ("engine", "Wdl"),
]


# The module whose classes a test class's tests use, beside the core ones.
_CLASS_MODULES = {"PgnTestCase": "pgn", "EngineTestCase": "engine", "SyzygyTestCase": "syzygy",
                  "PolyglotTestCase": "polyglot", "SvgTestCase": "svg"}

# Instances show attributes their classes do not (python-chess's Board.turn).
_SAMPLES = {"Board": (), "BaseBoard": (), "Move": (0, 1), "Piece": (1, True), "SquareSet": (), "Game": ()}


def _sample(module, name: str):
    """An instance of ``module.name`` where one is easy to make, else the class."""
    cls = getattr(module, name, None) if module is not None else None
    if cls is not None and name in _SAMPLES:
        try:
            return cls(*_SAMPLES[name])
        except Exception:
            pass
    return cls


def _public(obj) -> set:
    return {name for name in dir(obj) if not name.startswith("_")} if obj is not None else set()


def _test_functions(test_py: Path) -> Dict[Tuple[str, str], "object"]:
    import ast
    tree = ast.parse(test_py.read_text())
    functions = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in SCOPE:
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    functions[(node.name, item.name)] = item
    return functions


def _chess_path(node) -> Optional[List[str]]:
    """``chess.pgn.X`` as ["chess", "pgn", "X"]; None if not rooted at chess."""
    import ast
    parts: List[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == "chess":
        return ["chess"] + parts[::-1]
    return None


def needs(run: SuiteRun, test_py: Path, module: str = "bitboards") -> Dict[Tuple[str, str], set]:
    """For each test that did not pass: the python-chess names it uses
    (statically, in its source) that ``module`` lacks, as ``"Board.status"``,
    ``"chess.BaseBoard"``, ``"chess.pgn.read_game"``; and, for a test that
    failed on something other than a missing name, that error's first line
    (``"error: InvalidFenError: ..."``). Needs python-chess installed."""
    import ast
    import chess as py  # python-chess, the reference for the names
    ours_root = importlib.import_module(module)
    modules = {"": (py, ours_root)}
    for sub in SUBMODULES:
        theirs = importlib.import_module(f"chess.{sub}")
        try:
            ours = importlib.import_module(f"{module}.{sub}")
        except ImportError:
            ours = None
        modules[sub] = (theirs, ours)
    # attribute name -> [(module, python-chess class label, present in ours?)]
    owners: Dict[str, List[Tuple[str, str, bool]]] = {}
    for sub, name in _CLASSES:
        theirs_module, ours_module = modules[sub]
        label = f"{sub + '.' if sub else ''}{name}"
        theirs_names = _public(_sample(theirs_module, name))
        ours_names = _public(_sample(ours_module, name))
        for attr in theirs_names:
            owners.setdefault(attr, []).append((sub, label, attr in ours_names))
    functions = _test_functions(test_py)
    result: Dict[Tuple[str, str], set] = {}
    for key, (outcome, detail) in run.outcomes.items():
        if outcome == "pass" or key not in functions:
            continue
        wanted = set()
        for node in ast.walk(functions[key]):
            if not isinstance(node, ast.Attribute):
                continue
            path = _chess_path(node)
            if path is not None:
                if len(path) >= 3 and path[1] in modules and modules[path[1]][1] is None:
                    wanted.add(f"chess.{path[1]} (module)")
                elif len(path) >= 3 and path[1] in modules:
                    theirs_module, ours_module = modules[path[1]]
                    if path[2] in _public(theirs_module) and not hasattr(ours_module, path[2]):
                        wanted.add(f"chess.{path[1]}.{path[2]}")
                elif len(path) >= 2 and path[1] not in modules:
                    if path[1] in _public(py) and not hasattr(ours_root, path[1]):
                        wanted.add(f"chess.{path[1]}")
                continue
            relevant = ("", _CLASS_MODULES.get(key[0], ""))
            for sub, label, present in owners.get(node.attr, []):
                if sub in relevant and not present:
                    wanted.add(f"{label}.{node.attr}")
                    break
        lines = detail.strip().splitlines()
        last = lines[-1] if lines else outcome
        if not wanted or not last.startswith("AttributeError"):
            wanted.add(f"{outcome}: {last[:160]}")
        result[key] = wanted
    return result


def rank(needed: Dict[Tuple[str, str], set]) -> List[Tuple[str, int, int]]:
    """Greedy: the need that completes the most tests with those chosen
    before it; ``(need, tests it completes, tests it appears in)``."""
    chosen: set = set()
    remaining = dict(needed)
    order = []
    while remaining:
        counts: Dict[str, List[int]] = {}
        for wants in remaining.values():
            missing = wants - chosen
            for want in missing:
                entry = counts.setdefault(want, [0, 0])
                entry[1] += 1
                if len(missing) == 1:
                    entry[0] += 1
        if not counts:
            break
        best = max(counts, key=lambda want: (counts[want][0], counts[want][1], want))
        chosen.add(best)
        order.append((best, counts[best][0], counts[best][1]))
        remaining = {k: v for k, v in remaining.items() if not v <= chosen}
    return order


def read_counts(path: Path = COUNT_FILE) -> Dict[str, Tuple[int, int]]:
    """The stored counts: ``{class or "total": (passed, total)}``."""
    counts: Dict[str, Tuple[int, int]] = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, fraction = line.split()
        passed, total = fraction.split("/")
        counts[name] = (int(passed), int(total))
    return counts


def below_floor(counts: Dict[str, Tuple[int, int]], stored: Dict[str, Tuple[int, int]]) -> List[str]:
    """Each class (and the total) whose count of tests passed fell below the
    stored one, as ``"Class: before -> now"``: a class that loses a test
    is named even when another gains one and the total holds."""
    return [
        f"{name}: {stored[name][0]} -> {passed}"
        for name, (passed, _) in counts.items()
        if passed < stored.get(name, (0, 0))[0]
    ]


def write_counts(counts: Dict[str, Tuple[int, int]], path: Path = COUNT_FILE) -> None:
    lines = [
        f"# python-chess {VERSION}'s test.py against bitboards: tests passed / tests in scope, per class.",
        "# The last count the project reached: tests/test_python_chess_suite.py fails when a",
        "# class falls below its count. Written by `python_chess_suite.py --write-counts`.",
    ]
    for name, (passed, total) in counts.items():
        lines.append(f"{name} {passed}/{total}")
    path.write_text("\n".join(lines) + "\n")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sdist", type=Path, help="an unpacked sdist, or its tarball (default: pip download)")
    parser.add_argument("--module", default="bitboards", help="the module in chess's place (chess: python-chess itself)")
    parser.add_argument("--failures", action="store_true", help="print why each failing test failed")
    parser.add_argument("--list", action="store_true", help="print each test's outcome")
    parser.add_argument("--write-counts", action="store_true", help=f"store the counts in {COUNT_FILE.name}")
    parser.add_argument("--rank", action="store_true",
                        help="rank the names the failing tests use and bitboards lacks (needs python-chess)")
    parser.add_argument("--timeout", type=float, default=RUN_TIMEOUT)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args.sdist, args.module, args.out)

    with tempfile.TemporaryDirectory(prefix="python-chess-sdist-") as scratch:
        if args.sdist is not None:
            sdist = locate_sdist(args.sdist, Path(scratch))
        else:
            sdist = fetch_sdist(Path(scratch))
        run = run_suite(sdist, module=args.module, timeout=args.timeout)
        needed = needs(run, sdist / "test.py", args.module) if args.rank else {}
    if args.list or args.failures:
        for (class_name, test), (outcome, detail) in run.outcomes.items():
            if args.list or outcome != "pass":
                print(f"{outcome:5} {class_name}.{test}")
                if args.failures and outcome != "pass":
                    print("      " + detail.strip().replace("\n", "\n      "))
    print("modules: " + ", ".join(f"{k} = {v}" for k, v in run.modules.items()))
    print(run.table())
    if args.rank:
        print("what the failing tests need (greedy: each need with those above it completes N tests;")
        print("needs found statically in each test's source, so a test may need more than listed):")
        total = 0
        for want, completes, appears in rank(needed):
            total += completes
            print(f"  {completes:3} (+{appears - completes:3} more need it) {total:4} so far  {want}")
        if args.list:
            for (class_name, test), wants in sorted(needed.items()):
                print(f"  {class_name}.{test}: {', '.join(sorted(wants))}")
    if args.write_counts:
        write_counts(run.counts())
        print(f"wrote {COUNT_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
