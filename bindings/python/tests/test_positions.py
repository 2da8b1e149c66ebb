"""Position rows (`read_positions`, `iter_positions`, `planes`) against
python-chess: every column of every row, on random standard and Chess960
games with clock and eval comments."""

import io
import random
import time

import chess
import chess.pgn
import numpy as np
import pyarrow as pa
import pytest

import bitboards
import bitboards.pgn

PIECES = [(color, kind) for color in (chess.WHITE, chess.BLACK) for kind in range(1, 7)]


def random_game(rng, board, plies):
    """A python-chess game of up to `plies` random legal moves from `board`,
    with a clock on most moves and an eval on some, as Lichess writes them."""
    game = chess.pgn.Game.from_board(board)
    game.headers["WhiteElo"] = str(rng.randrange(800, 2800))
    game.headers["BlackElo"] = str(rng.randrange(800, 2800))
    game.headers["Opening"] = rng.choice(["Sicilian Defense", "French Defense"])
    node = game
    seconds = 180
    for _ in range(plies):
        moves = list(node.board().legal_moves)
        if not moves:
            break
        node = node.add_variation(rng.choice(moves))
        parts = []
        if rng.random() < 0.5:
            # Multiples of 0.25 pawn: exact in binary, so python-chess's
            # float arithmetic agrees with our exact decimals.
            parts.append(f"[%eval {rng.randrange(-40, 40) * 0.25:.2f}]")
        elif rng.random() < 0.1:
            parts.append(f"[%eval #{rng.choice([-3, -1, 2, 5])}]")
        if rng.random() < 0.9:
            seconds = max(0, seconds - rng.randrange(0, 5))
            parts.append(f"[%clk 0:{seconds // 60:02}:{seconds % 60:02}]")
        node.comment = " ".join(parts)
    outcome = node.board().outcome()
    game.headers["Result"] = outcome.result() if outcome else "*"
    return game


@pytest.fixture(scope="module")
def games():
    rng = random.Random(2024)
    out = []
    for number in range(24):
        if number % 4 == 3:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board()
        out.append(random_game(rng, board, rng.randrange(1, 160)))
    return out


@pytest.fixture(scope="module")
def pgn_path(tmp_path_factory, games):
    path = tmp_path_factory.mktemp("positions") / "games.pgn"
    path.write_text("\n\n".join(str(game) for game in games) + "\n")
    return path


def expected_rows(games, final_position=False):
    """Every row as python-chess sees it."""
    rows = []
    for number, game in enumerate(games):
        board = game.board()
        nodes = list(game.mainline())
        for ply in range(len(nodes) + (1 if final_position else 0)):
            node = nodes[ply] if ply < len(nodes) else None
            score = node.eval().white() if node is not None and node.eval() else None
            rows.append({
                "game": number,
                "ply": ply,
                "bitboards": [board.pieces_mask(kind, color) for color, kind in PIECES],
                "turn": board.turn,
                "castling": board.castling_rights,
                "ep_square": board.ep_square if board.has_legal_en_passant() else None,
                "halfmove_clock": board.halfmove_clock,
                "fullmove_number": board.fullmove_number,
                "move": board.uci(node.move, chess960=board.chess960) if node else None,
                "move_clock": node.clock() if node else None,
                "move_eval": None if score is None else {
                    "cp": None if score.is_mate() else score.score(),
                    "mate": score.mate() if score.is_mate() else None,
                },
                "WhiteElo": int(game.headers["WhiteElo"]),
                "BlackElo": int(game.headers["BlackElo"]),
                "Result": game.headers["Result"],
            })
            if node is not None:
                board.push(node.move)
    return rows


def test_every_column_of_every_row_is_python_chess(games, pgn_path):
    table = bitboards.pgn.read_positions(pgn_path, final_position=True)
    assert table.column_names == bitboards.pgn.POSITION_COLUMNS
    got = table.to_pylist()
    want = expected_rows(games, final_position=True)
    assert len(got) == len(want)
    for ours, theirs in zip(got, want):
        assert ours == theirs, (ours["game"], ours["ply"])


def test_types_are_the_documented_ones(pgn_path):
    schema = bitboards.pgn.read_positions(pgn_path).schema
    assert schema.field("game").type == pa.uint64()
    assert schema.field("ply").type == pa.uint16()
    assert schema.field("bitboards").type == pa.list_(pa.field("item", pa.uint64(), False), 12)
    assert schema.field("turn").type == pa.bool_()
    assert schema.field("castling").type == pa.uint64()
    assert schema.field("ep_square").type == pa.uint8()
    assert schema.field("move_clock").type == pa.float64()
    assert schema.field("WhiteElo").type == pa.int32()


def test_one_thread_and_all_threads_give_the_same_table(pgn_path):
    # Many copies of the games, so that the file is cut into several chunks.
    text = pgn_path.read_bytes()
    big = (text + b"\n\n") * 60
    one = bitboards.pgn.read_positions(io.BytesIO(big), threads=1)
    for threads in (2, 3):
        assert bitboards.pgn.read_positions(io.BytesIO(big), threads=threads).equals(one)
    games = one["game"].to_numpy()
    assert games.max() == 24 * 60 - 1 and np.all(np.diff(games.astype(np.int64)) >= 0)


def test_filters(games, pgn_path):
    every = bitboards.pgn.read_positions(pgn_path, every=3, min_ply=2, max_ply=30).to_pylist()
    want = [row for row in expected_rows(games) if row["ply"] % 3 == 0 and 2 <= row["ply"] <= 30]
    assert every == want
    rated = bitboards.pgn.read_positions(pgn_path, min_elo=1500).to_pylist()
    want = [row for row in expected_rows(games) if min(row["WhiteElo"], row["BlackElo"]) >= 1500]
    assert rated == want
    sample = bitboards.pgn.read_positions(pgn_path, sample=0.3, seed=5)
    again = bitboards.pgn.read_positions(pgn_path, sample=0.3, seed=5, threads=2)
    assert sample.equals(again)
    total = sum(len(list(game.mainline())) for game in games)
    assert 0.2 * total < sample.num_rows < 0.4 * total
    with_columns = bitboards.pgn.read_positions(pgn_path, columns=["Opening", "plies"])
    assert with_columns.column_names[-2:] == ["Opening", "plies"]
    plies = {number: len(list(game.mainline())) for number, game in enumerate(games)}
    for row in with_columns.to_pylist():
        assert row["plies"] == plies[row["game"]]
        assert row["Opening"] == games[row["game"]].headers["Opening"]
    with pytest.raises(ValueError, match="movetext"):
        bitboards.pgn.read_positions(pgn_path, columns=["movetext"])
    with pytest.raises(ValueError, match="every"):
        bitboards.pgn.read_positions(pgn_path, every=0)


def test_iter_positions_streams_the_same_rows(pgn_path):
    table = bitboards.pgn.read_positions(pgn_path)
    batches = list(bitboards.pgn.iter_positions(pgn_path, batch_size=100))
    assert len(batches) > 3
    assert all(batch.num_rows < 100 + 200 for batch in batches)
    assert pa.Table.from_batches(batches).equals(table)


def test_a_plain_file_read_in_place_gives_what_a_stream_gives(pgn_path, tmp_path):
    """A plain file is mapped and read where it lies; bytes, and a
    compressed file, are read as streams: the same rows, in the same
    batches."""
    import gzip

    text = pgn_path.read_bytes()
    mapped = bitboards.pgn.read_positions(pgn_path, threads=1)
    streamed = bitboards.pgn.read_positions(text, threads=1)
    packed = tmp_path / "games.pgn.gz"
    packed.write_bytes(gzip.compress(text))
    assert mapped.equals(streamed)
    assert [len(chunk) for chunk in mapped["game"].chunks] == [len(chunk) for chunk in streamed["game"].chunks]
    assert bitboards.pgn.read_positions(packed, threads=2).equals(mapped)
    assert bitboards.pgn.read_positions([pgn_path, pgn_path]).num_rows == 2 * mapped.num_rows
    # Shorter than a compression's magic number, and empty.
    tiny = tmp_path / "tiny.pgn"
    tiny.write_bytes(b"*")
    assert bitboards.pgn.read_positions(tiny, final_position=True).num_rows == 1
    empty = tmp_path / "empty.pgn"
    empty.write_bytes(b"")
    assert bitboards.pgn.read_positions(empty).num_rows == 0
    not_pgn = tmp_path / "picture.pgn"
    not_pgn.write_bytes(b"\x89PNG\r\n\x1a\n not a game" * 100)
    with pytest.raises(bitboards.NotPgnError, match="picture.pgn"):
        bitboards.pgn.read_positions(not_pgn)


def test_a_mapped_file_stops_being_read_when_its_batches_are_dropped(pgn_path, tmp_path):
    """The reader of a mapped file has no stream to end: it stops at the
    next chunk once nobody takes its batches."""
    from bitboards import _bitboards

    copies = 300
    big = tmp_path / "big.pgn"
    big.write_bytes(pgn_path.read_bytes() * copies)
    total = copies * bitboards.pgn.read_positions(pgn_path, max_ply=0).num_rows
    stream = _bitboards.position_stream([str(big)], 1, 1, 0, None, None, None, 0, False, None, 100, False)
    reader = pa.RecordBatchReader.from_stream(stream)
    assert reader.read_next_batch().num_rows >= 100
    reader.close()
    read, deadline = -1, time.monotonic() + 60
    while stream.games() != read and time.monotonic() < deadline:
        read = stream.games()
        time.sleep(0.3)
    assert 0 < read < total // 2, (read, total)


def test_bad_games_are_left_out_and_counted(pgn_path):
    text = pgn_path.read_text()
    bad = text + '\n\n[Event "bad"]\n[WhiteElo "2000"]\n[BlackElo "2000"]\n\n1. e4 Ke7 *\n\n' + text
    with pytest.warns(UserWarning, match="1 game"):
        table = bitboards.pgn.read_positions(io.StringIO(bad))
    assert table.num_rows == 2 * bitboards.pgn.read_positions(pgn_path).num_rows
    assert 24 not in set(table["game"].to_pylist())
    with pytest.raises(bitboards.NotPgnError):
        bitboards.pgn.read_positions(io.BytesIO(b"\x89PNG\r\n\x1a\n not a game"))
    with pytest.raises(FileNotFoundError):
        bitboards.pgn.read_positions(pgn_path.parent / "missing.pgn")


def planes_by_loop(rows):
    """The planes of rows of twelve masks, square by square."""
    out = np.zeros((len(rows), 12, 8, 8), dtype=np.uint8)
    for row, masks in enumerate(rows):
        for plane, mask in enumerate(masks):
            for square in range(64):
                if mask >> square & 1:
                    out[row, plane, square // 8, square % 8] = 1
    return out


def test_planes_are_the_squares_of_each_board(pgn_path):
    table = bitboards.pgn.read_positions(pgn_path, max_ply=20)
    rows = table["bitboards"].to_pylist()
    expected = planes_by_loop(rows)
    assert np.array_equal(bitboards.planes(table["bitboards"]), expected)
    as_numpy = np.array(rows, dtype=np.uint64)
    assert np.array_equal(bitboards.planes(as_numpy), expected)
    assert bitboards.planes(as_numpy).dtype == np.uint8
    with pytest.raises(ValueError):
        bitboards.planes(np.zeros((3, 11), dtype=np.uint64))


def test_planes_of_many_rows_on_every_core_are_writable_arrays():
    # Above 16,383 rows the planes are written on several threads: compare
    # with NumPy's own bit unpacking.
    rng = np.random.default_rng(7)
    boards = rng.integers(0, 2**63, size=(40_000, 12), dtype=np.uint64) << np.uint64(1)
    boards[::3] |= np.uint64(1)
    want = np.unpackbits(boards.view(np.uint8).reshape(-1, 12, 8), axis=-1, bitorder="little")
    turn = rng.integers(0, 2, size=40_000).astype(bool)
    got = bitboards.planes(boards)
    assert got.shape == (40_000, 12, 8, 8) and got.dtype == np.uint8
    assert np.array_equal(got.reshape(-1, 12, 8, 8), want.reshape(-1, 12, 8, 8))
    assert got.flags.writeable and got.flags.c_contiguous
    got[0, 0, 0, 0] = 9
    assert bitboards.planes(boards)[0, 0, 0, 0] == boards[0, 0] & 1
    flipped = bitboards.planes(boards, turn=turn)
    black = ~turn
    assert np.array_equal(flipped[turn], want.reshape(-1, 12, 8, 8)[turn])
    mirrored = want.reshape(-1, 12, 8, 8)[black][:, [6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5], ::-1, :]
    assert np.array_equal(flipped[black], mirrored)
    assert bitboards.planes(np.zeros((0, 12), dtype=np.uint64)).shape == (0, 12, 8, 8)


def test_planes_into_an_array_of_the_callers():
    rng = np.random.default_rng(11)
    turn = rng.integers(0, 2, size=20_000).astype(bool)
    out = np.full((20_000, 12, 8, 8), 7, dtype=np.uint8)
    for rows in [20_000, 5]:
        boards = rng.integers(0, 2**63, size=(rows, 12), dtype=np.uint64)
        into = out[:rows]
        assert bitboards.planes(boards, out=into) is into
        assert np.array_equal(into, bitboards.planes(boards))
        assert bitboards.planes(boards, turn=turn[:rows], out=into) is into
        assert np.array_equal(into, bitboards.planes(boards, turn=turn[:rows]))
    boards = np.zeros((4, 12), dtype=np.uint64)
    wrong = [
        np.zeros((5, 12, 8, 8), dtype=np.uint8),
        np.zeros((4, 12, 8, 8), dtype=np.int64),
        np.zeros((4, 12, 8, 16), dtype=np.uint8)[..., ::2],
        np.zeros((4, 768), dtype=np.uint8),
        [[0] * 768] * 4,
    ]
    readonly = np.zeros((4, 12, 8, 8), dtype=np.uint8)
    readonly.flags.writeable = False
    for bad in wrong + [readonly]:
        with pytest.raises(ValueError, match="out must be"):
            bitboards.planes(boards, out=bad)


def test_planes_refuse_a_turn_of_another_length_and_arrays_they_cannot_read():
    boards = np.zeros((4, 12), dtype=np.uint64)
    with pytest.raises(ValueError, match=r"turn must be .* of shape \(4,\), not ndarray bool \(3,\)"):
        bitboards.planes(boards, turn=[True] * 3)
    # The encoder checks what it is handed itself (planes converts first).
    out = np.zeros((4, 12, 8, 8), dtype=np.uint8)
    planes_into = bitboards._bitboards.planes_into
    with pytest.raises(ValueError, match="boards must be"):
        planes_into(boards.astype(np.int64), None, out)
    with pytest.raises(ValueError, match="boards must be"):
        planes_into(np.zeros((4, 24), dtype=np.uint64)[:, ::2], None, out)
    with pytest.raises(ValueError, match="turn must be"):
        planes_into(boards, np.ones(4, dtype=np.int8), out)
    with pytest.raises(ValueError, match="shares memory"):
        planes_into(out.reshape(-1).view(np.uint64)[:48].reshape(4, 12), None, out)
    planes_into(boards + np.uint64(1), np.ones(4, dtype=bool), out)
    assert out[:, 0, 0, 0].tolist() == [1, 1, 1, 1] and int(out.sum()) == 4 * 12


def test_planes_take_subclasses_as_views_and_the_encoder_refuses_them():
    class Lying(np.ndarray):
        """An ndarray subclass whose __array_interface__ gives another address."""

        @property
        def __array_interface__(self):
            interface = dict(super().__array_interface__)
            interface["data"] = (8, False)
            return interface

    boards = np.arange(48, dtype=np.uint64).reshape(4, 12)
    out = np.zeros((4, 12, 8, 8), dtype=np.uint8).view(Lying)
    # planes hands the encoder a plain view of the same memory.
    assert bitboards.planes(boards.view(Lying), out=out) is out
    assert np.array_equal(np.asarray(out), bitboards.planes(boards))
    # The encoder reads only plain ndarrays, whose memory NumPy itself names.
    planes_into = bitboards._bitboards.planes_into
    with pytest.raises(ValueError, match="out must be"):
        planes_into(boards, None, out)
    with pytest.raises(ValueError, match="boards must be"):
        planes_into(boards.view(Lying), None, np.zeros((4, 12, 8, 8), dtype=np.uint8))


def test_flip_is_the_mirrored_board_for_black(games):
    board = chess.Board()
    for move in list(games[0].mainline_moves())[:15]:
        board.push(move)
    assert board.turn == chess.BLACK
    ours = bitboards.Board(board.fen())
    mirrored = board.mirror()
    want = planes_by_loop([[mirrored.pieces_mask(kind, color) for color, kind in PIECES]])[0]
    assert np.array_equal(ours.planes(flip=True), want)
    plain = planes_by_loop([[board.pieces_mask(kind, color) for color, kind in PIECES]])[0]
    assert np.array_equal(ours.planes(), plain)
    # The column form: rows where Black is to move flip.
    masks = np.array([[board.pieces_mask(kind, color) for color, kind in PIECES]] * 2, dtype=np.uint64)
    flipped = bitboards.planes(masks, turn=np.array([True, False]))
    assert np.array_equal(flipped[0], plain) and np.array_equal(flipped[1], want)


def random_boards(rng, rows):
    """`rows` rows of twelve random boards, sparse and dense alike, with the
    corner squares (a1, h1, a8, h8) set in some."""
    boards = rng.integers(0, 2**64, size=(rows, 12), dtype=np.uint64, endpoint=False)
    sparse = rng.integers(0, 2**64, size=(rows, 12), dtype=np.uint64, endpoint=False)
    boards[::2] &= sparse[::2] & (sparse[::2] >> np.uint64(3))
    boards[::5] |= np.uint64(1 | 1 << 7 | 1 << 56 | 1 << 63)
    return boards


def planes_by_shifts(boards, turn=None):
    """The planes square by square, as NumPy shifts (for many rows), seen
    from Black's side where `turn` is False."""
    squares = np.arange(64, dtype=np.uint64)
    planes = ((boards[:, :, None] >> squares) & np.uint64(1)).astype(np.uint8).reshape(-1, 12, 8, 8)
    if turn is not None:
        black = ~np.asarray(turn, dtype=bool)
        planes[black] = planes[black][:, [6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5], ::-1, :]
    return planes


def test_planes_of_every_batch_size_and_every_kernel_are_the_squares():
    # Each of the encoder's kernels this processor runs (AVX-512 and AVX2
    # where it has them, and the portable one) against a loop over squares,
    # both turns, every batch size from 0 to 70 and some past 512 rows
    # (written on every core), into a new array and into a given one.
    kernels = bitboards._bitboards.planes_kernels()
    assert kernels[-1] == "portable" and len(set(kernels)) == len(kernels)
    planes_into = bitboards._bitboards.planes_into
    rng = np.random.default_rng(45)
    for rows in [*range(71), 511, 512, 513, 2_049, 16_385, 40_001]:
        boards = random_boards(rng, rows)
        turn = rng.integers(0, 2, size=rows).astype(bool)
        if rows <= 70:
            plain = planes_by_loop(boards.tolist())
            masks = boards.tolist()
            mirrored = [[int.from_bytes(int(m).to_bytes(8, "little"), "big") for m in row[6:] + row[:6]] for row in masks]
            seen = planes_by_loop([m if t else b for m, t, b in zip(masks, turn, mirrored)])
        else:
            plain, seen = planes_by_shifts(boards), planes_by_shifts(boards, turn)
        assert np.array_equal(bitboards.planes(boards), plain), rows
        assert np.array_equal(bitboards.planes(boards, turn=turn), seen), rows
        for kernel in kernels:
            for want, turn_ in ((plain, None), (seen, turn)):
                out = np.full((rows, 12, 8, 8), 9, dtype=np.uint8)
                planes_into(boards, turn_, out, kernel=kernel)
                assert np.array_equal(out, want), (rows, kernel, turn_ is None)
        out = np.full((rows, 12, 8, 8), 9, dtype=np.uint8)
        assert bitboards.planes(boards, turn=turn, out=out) is out
        assert np.array_equal(out, seen), rows
        # All White to move is no flip; all Black, every row flipped.
        assert np.array_equal(bitboards.planes(boards, turn=np.ones(rows, dtype=bool)), plain)
        assert np.array_equal(bitboards.planes(boards, turn=np.zeros(rows, dtype=bool)),
                              planes_by_shifts(boards, np.zeros(rows, dtype=bool)))


def test_planes_into_arrays_at_any_alignment():
    # The vector stores take any address: out and boards at every offset
    # of a 64-byte line.
    rng = np.random.default_rng(3)
    boards = random_boards(rng, 37)
    turn = rng.integers(0, 2, size=37).astype(bool)
    want = planes_by_shifts(boards, turn)
    for offset in range(0, 64, 8):
        raw = np.zeros(37 * 768 + 64, dtype=np.uint8)
        out = raw[offset:offset + 37 * 768].reshape(37, 12, 8, 8)
        raw_in = np.zeros(37 * 12 + 8, dtype=np.uint64)
        shifted = raw_in[offset // 8:offset // 8 + 37 * 12].reshape(37, 12)
        shifted[:] = boards
        for kernel in bitboards._bitboards.planes_kernels():
            out[:] = 9
            bitboards._bitboards.planes_into(shifted, turn, out, kernel=kernel)
            assert np.array_equal(out, want), (offset, kernel)
        assert raw[:offset].sum() == 0 and raw[offset + 37 * 768:].sum() == 0


def test_planes_refuse_a_kernel_this_processor_does_not_run():
    boards = np.zeros((2, 12), dtype=np.uint64)
    out = np.zeros((2, 12, 8, 8), dtype=np.uint8)
    for name in ["avx1024", "", "AVX2"]:
        with pytest.raises(ValueError, match="kernel must be one of"):
            bitboards._bitboards.planes_into(boards, None, out, kernel=name)
    if "avx2" not in bitboards._bitboards.planes_kernels():
        with pytest.raises(ValueError, match="kernel must be one of"):
            bitboards._bitboards.planes_into(boards, None, out, kernel="avx2")


def test_planes_out_of_the_wrong_shape_or_dtype_is_a_clear_value_error():
    boards = np.zeros((3, 12), dtype=np.uint64)
    for bad in [np.zeros((3, 12, 8, 8), dtype=np.bool_), np.zeros((3, 12, 8, 8), dtype=np.int8),
                np.zeros((3, 12, 64), dtype=np.uint8), np.zeros((2, 12, 8, 8), dtype=np.uint8),
                np.zeros((3, 12, 8, 8), dtype=np.uint8, order="F"), np.zeros((0, 12, 8, 8), dtype=np.uint8)]:
        with pytest.raises(ValueError, match=r"out must be a C-contiguous, writable uint8 array of shape \(3, 12, 8, 8\)"):
            bitboards.planes(boards, out=bad)
