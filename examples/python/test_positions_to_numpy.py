"""The training-batch example on a small `.pgn.zst`, checked against
python-chess position by position."""

import random
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import positions_to_numpy  # noqa: E402


def write_games(path, count, seed):
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(rng.randrange(10, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            node.comment = f"[%clk 0:02:{rng.randrange(60):02}]"
            board.push(move)
        game.headers["WhiteElo"] = str(rng.randrange(1000, 2600))
        game.headers["BlackElo"] = str(rng.randrange(1000, 2600))
        game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
        games.append(game)
    path.write_text("\n\n".join(str(game) for game in games) + "\n")
    subprocess.run(["zstd", "-q", "-f", str(path), "-o", str(path) + ".zst"], check=True)
    return games


def planes_of(board):
    """The mover's view by python-chess: the mirrored board when Black moves."""
    seen = board if board.turn == chess.WHITE else board.mirror()
    out = np.zeros((12, 8, 8), dtype=np.uint8)
    for plane, (color, kind) in enumerate((c, k) for c in (chess.WHITE, chess.BLACK) for k in range(1, 7)):
        for square in seen.pieces(kind, color):
            out[plane, square // 8, square % 8] = 1
    return out


def test_training_batch_is_every_position_seen_by_the_mover(tmp_path):
    games = write_games(tmp_path / "games.pgn", 40, 3)
    planes, moves, results = positions_to_numpy.training_batch(str(tmp_path / "games.pgn.zst"), min_elo=1400)
    want_planes, want_moves, want_results = [], [], []
    values = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}
    for game in games:
        if min(int(game.headers["WhiteElo"]), int(game.headers["BlackElo"])) < 1400:
            continue
        if game.headers["Result"] not in values:
            continue
        board = game.board()
        for move in game.mainline_moves():
            flip = 0 if board.turn == chess.WHITE else 56
            want_planes.append(planes_of(board))
            want_moves.append((move.from_square ^ flip) * 64 + (move.to_square ^ flip))
            result = values[game.headers["Result"]]
            want_results.append(result if board.turn == chess.WHITE else -result)
            board.push(move)
    assert len(planes) == len(want_planes) > 100
    assert np.array_equal(planes, np.array(want_planes))
    assert np.array_equal(moves, np.array(want_moves))
    assert np.array_equal(results, np.array(want_results))


def test_the_command_writes_the_arrays(tmp_path):
    write_games(tmp_path / "games.pgn", 10, 4)
    out = tmp_path / "batch.npz"
    done = subprocess.run(
        [sys.executable, str(Path(positions_to_numpy.__file__)), str(tmp_path / "games.pgn.zst"),
         "--out", str(out), "--limit", "50"],
        capture_output=True, text=True, check=True,
    )
    batch = np.load(out)
    assert batch["planes"].shape == (50, 12, 8, 8) and batch["moves"].shape == (50,)
    assert "50 positions" in done.stdout
