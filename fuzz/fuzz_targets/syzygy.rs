//! Syzygy tables: no table file makes a probe panic. The input is a table
//! file and the name it is added under, and the positions probed are of
//! that name's material, so that a probe reaches the file's header, its
//! index and its compressed blocks; errors are expected, panics are not.
//!
//! The input's first byte picks one of the 70 real 3- and 4-piece table
//! names (tests/data/syzygy, embedded):
//!
//! - below 128, the rest of the input is the file (the seeds are real
//!   tables, which libFuzzer then cuts short and mutates);
//! - from 128, the file is that real table, cut to the length the next two
//!   bytes say (big endian, out of 65,535: `ff ff` keeps it whole), then
//!   each 4 bytes that follow XOR a byte (a 24-bit offset, then the XOR).
//!
//! The file is added with `Tablebase::add_table_bytes` beside the real
//! 3-piece tables (what a 4-piece position's captures lead to; a fuzzed
//! 3-piece table replaces its real one), and 12 positions of its material
//! (either side the stronger, either side to move, some with en passant)
//! are probed with `probe_wdl` and `probe_dtz`, the first also with
//! `best_moves`.
#![no_main]

use bitboards::Position;
use bitboards_syzygy::Tablebase;
use libfuzzer_sys::fuzz_target;

macro_rules! embedded {
    ($($name:literal,)*) => {
        [$(($name, include_bytes!(concat!("../../tests/data/syzygy/", $name)) as &[u8]),)*]
    };
}

/// Every table of tests/data/syzygy, by name.
const TABLES: [(&str, &[u8]); 70] = embedded![
    "KBBvK.rtbw",
    "KBBvK.rtbz",
    "KBNvK.rtbw",
    "KBNvK.rtbz",
    "KBPvK.rtbw",
    "KBPvK.rtbz",
    "KBvK.rtbw",
    "KBvK.rtbz",
    "KBvKB.rtbw",
    "KBvKB.rtbz",
    "KBvKN.rtbw",
    "KBvKN.rtbz",
    "KBvKP.rtbw",
    "KBvKP.rtbz",
    "KNNvK.rtbw",
    "KNNvK.rtbz",
    "KNPvK.rtbw",
    "KNPvK.rtbz",
    "KNvK.rtbw",
    "KNvK.rtbz",
    "KNvKN.rtbw",
    "KNvKN.rtbz",
    "KNvKP.rtbw",
    "KNvKP.rtbz",
    "KPPvK.rtbw",
    "KPPvK.rtbz",
    "KPvK.rtbw",
    "KPvK.rtbz",
    "KPvKP.rtbw",
    "KPvKP.rtbz",
    "KQBvK.rtbw",
    "KQBvK.rtbz",
    "KQNvK.rtbw",
    "KQNvK.rtbz",
    "KQPvK.rtbw",
    "KQPvK.rtbz",
    "KQQvK.rtbw",
    "KQQvK.rtbz",
    "KQRvK.rtbw",
    "KQRvK.rtbz",
    "KQvK.rtbw",
    "KQvK.rtbz",
    "KQvKB.rtbw",
    "KQvKB.rtbz",
    "KQvKN.rtbw",
    "KQvKN.rtbz",
    "KQvKP.rtbw",
    "KQvKP.rtbz",
    "KQvKQ.rtbw",
    "KQvKQ.rtbz",
    "KQvKR.rtbw",
    "KQvKR.rtbz",
    "KRBvK.rtbw",
    "KRBvK.rtbz",
    "KRNvK.rtbw",
    "KRNvK.rtbz",
    "KRPvK.rtbw",
    "KRPvK.rtbz",
    "KRRvK.rtbw",
    "KRRvK.rtbz",
    "KRvK.rtbw",
    "KRvK.rtbz",
    "KRvKB.rtbw",
    "KRvKB.rtbz",
    "KRvKN.rtbw",
    "KRvKN.rtbz",
    "KRvKP.rtbw",
    "KRvKP.rtbz",
    "KRvKR.rtbw",
    "KRvKR.rtbz",
];

/// How many positions of the material are probed.
const POSITIONS: usize = 12;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let (name, real) = TABLES[usize::from(first & 0x7f) % TABLES.len()];
    let bytes = if first < 128 {
        rest.to_vec()
    } else {
        mutated(real, rest)
    };
    let mut tables = Tablebase::new();
    for (other, other_bytes) in TABLES {
        if material(other).len() == 3 {
            tables.add_table_bytes(other, other_bytes.to_vec()).unwrap();
        }
    }
    tables.add_table_bytes(name, bytes).unwrap();

    let mut random = Xorshift::new(data);
    let (strong, weak) = material(name).split_once('v').unwrap();
    for at in 0..POSITIONS {
        let Some(position) = position(strong, weak, &mut random) else {
            continue;
        };
        let _ = tables.probe_wdl(&position);
        let _ = tables.probe_dtz(&position);
        if at == 0 {
            let _ = tables.best_moves(&position);
        }
    }
});

/// The name without its extension: `KRvKN`.
fn material(name: &str) -> &str {
    name.split_once('.').map_or(name, |(stem, _)| stem)
}

/// `real`, cut short and with bytes flipped as `edits` says.
fn mutated(real: &[u8], edits: &[u8]) -> Vec<u8> {
    let (keep, edits) = match edits {
        [high, low, rest @ ..] => (usize::from(u16::from_be_bytes([*high, *low])), rest),
        _ => (65_535, edits),
    };
    let mut bytes = real[..real.len() * keep / 65_535].to_vec();
    if bytes.is_empty() {
        return bytes;
    }
    for edit in edits.chunks_exact(4) {
        let offset = usize::from(edit[0]) << 16 | usize::from(edit[1]) << 8 | usize::from(edit[2]);
        let len = bytes.len();
        bytes[offset % len] ^= edit[3];
    }
    bytes
}

/// A small generator seeded by the input, for the positions.
struct Xorshift(u64);

impl Xorshift {
    fn new(data: &[u8]) -> Xorshift {
        let seed = data.iter().take(64).fold(data.len() as u64, |sum, &byte| {
            sum.wrapping_mul(0x0100_0000_01b3) ^ u64::from(byte)
        });
        Xorshift(seed | 1)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A legal position with `strong`'s pieces for one side and `weak`'s for
/// the other (`KRP`, `KN`), or `None` when the squares drawn make none.
fn position(strong: &str, weak: &str, random: &mut Xorshift) -> Option<Position> {
    let white_strong = random.below(2) == 0;
    let (white, black) = if white_strong {
        (strong, weak)
    } else {
        (weak, strong)
    };
    let mut board = [None::<char>; 64];
    for (pieces, upper) in [(white, true), (black, false)] {
        for piece in pieces.chars() {
            // Pawns stand on the second to the seventh rank.
            let (low, count) = if piece == 'P' { (8, 48) } else { (0, 64) };
            let square = (0..64)
                .map(|_| low + random.below(count))
                .find(|&square| board[square].is_none())?;
            board[square] = Some(if upper {
                piece
            } else {
                piece.to_ascii_lowercase()
            });
        }
    }
    let white_to_move = random.below(2) == 0;
    // En passant: a pawn of the side that just moved, two squares from its
    // start, with the two squares behind it empty.
    let mut en_passant = String::from("-");
    if random.below(3) == 0 {
        let (pawn, rank, behind) = if white_to_move {
            ('p', 4, 1i32)
        } else {
            ('P', 3, -1)
        };
        let candidates: Vec<usize> = (0..8)
            .map(|file| rank * 8 + file)
            .filter(|&square| board[square] == Some(pawn))
            .filter(|&square| {
                let one = (square as i32 + 8 * behind) as usize;
                let two = (square as i32 + 16 * behind) as usize;
                board[one].is_none() && board[two].is_none()
            })
            .collect();
        if !candidates.is_empty() {
            let square = candidates[random.below(candidates.len())];
            let target = (square as i32 + 8 * behind) as usize;
            en_passant = format!(
                "{}{}",
                char::from(b'a' + (target % 8) as u8),
                target / 8 + 1
            );
        }
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(piece) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(piece);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let side = if white_to_move { 'w' } else { 'b' };
    Position::from_fen(&format!("{fen} {side} - {en_passant} 0 1")).ok()
}
