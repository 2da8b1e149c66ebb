//! Every table but the sliders' (which are in [`crate::magics`]), computed by
//! walking coordinates, and the list of generated files.

use proc_macro2::TokenStream;

use crate::Error;
use crate::geometry::{DIRECTIONS, bit, coords, leaps, ray, square_name, squares_where};
use crate::magics::{self, Sliders};
use crate::render::{self, GeneratedFile, Table, TableInfo};

/// Renders every generated file, in a fixed order; the slider tables come
/// from `sliders`, already computed and verified.
pub fn files(sliders: &Sliders) -> Result<Vec<GeneratedFile>, Error> {
    let masks = masks();
    let names = names(&masks);
    let mut files = vec![
        render::file(
            "masks.rs",
            "Masks: files, ranks, their complements, diagonals, named regions and\nthe single-square table.",
            &masks,
            Vec::new(),
        )?,
        render::file(
            "leapers.rs",
            "Knight, king and pawn attacks, and pawn pushes, from every square.",
            &leapers(),
            Vec::new(),
        )?,
        render::file(
            "rays.rs",
            "Squares between two squares, and the line through them.",
            &rays(),
            Vec::new(),
        )?,
        render::file(
            "names.rs",
            "The name registry: square and mask names to bitboards.",
            &[],
            vec![names],
        )?,
    ];
    files.extend(magics::files(sliders)?);
    Ok(files)
}

/// An example block for a doc comment.
fn example(code: &str) -> String {
    format!("\n\n```\n{code}\n```")
}

fn masks() -> Vec<Table> {
    let files: Vec<u64> = (0..8).map(|f| squares_where(|file, _| file == f)).collect();
    let ranks: Vec<u64> = (0..8).map(|r| squares_where(|_, rank| rank == r)).collect();
    let not = |v: &[u64]| v.iter().map(|m| !m).collect::<Vec<_>>();
    // Diagonal d holds the squares with rank - file == d - 7: index 0 is h1,
    // 7 the long a1-h8 diagonal, 14 is a8.
    let diagonals = (0..15)
        .map(|d| squares_where(|file, rank| rank - file == d - 7))
        .collect();
    // Anti-diagonal d holds the squares with file + rank == d: index 0 is a1,
    // 7 the long a8-h1 diagonal, 14 is h8.
    let anti_diagonals = (0..15)
        .map(|d| squares_where(|file, rank| file + rank == d))
        .collect();
    let single = (0..64)
        .map(|i| {
            let (file, rank) = coords(i);
            bit(file, rank).unwrap_or(0)
        })
        .collect();

    vec![
        Table::list(
            "FILES",
            format!(
                "The squares of each file, a to h (the literature's MaskFile).{}",
                example(
                    "use bitboards::{tables::FILES, File, Square};\nassert_eq!(FILES[File::E.index()] & Square::E4.bitboard().0, Square::E4.bitboard().0);"
                )
            ),
            files.clone(),
        ),
        Table::list(
            "NOT_FILES",
            format!(
                "Every square off each file, a to h (the literature's ClearFile).{}",
                example(
                    "use bitboards::tables::{FILES, NOT_FILES};\nassert_eq!(NOT_FILES[0], !FILES[0]);"
                )
            ),
            not(&files),
        ),
        Table::list(
            "RANKS",
            format!(
                "The squares of each rank, first to eighth (the literature's MaskRank).{}",
                example(
                    "use bitboards::{tables::RANKS, Rank};\nassert_eq!(RANKS[Rank::Second.index()], 0xFF00);"
                )
            ),
            ranks.clone(),
        ),
        Table::list(
            "NOT_RANKS",
            format!(
                "Every square off each rank, first to eighth (the literature's ClearRank).{}",
                example(
                    "use bitboards::tables::{NOT_RANKS, RANKS};\nassert_eq!(NOT_RANKS[7], !RANKS[7]);"
                )
            ),
            not(&ranks),
        ),
        Table::list(
            "DIAGONALS",
            format!(
                "The 15 diagonals running up to the right (a1-h8 direction), indexed\nby `7 + rank - file`: 0 is h1 alone, 7 the long diagonal a1-h8, 14 is a8 alone.{}",
                example(
                    "use bitboards::{tables::DIAGONALS, Square};\nassert_eq!(DIAGONALS[7] & Square::E5.bitboard().0, Square::E5.bitboard().0);\nassert_eq!(DIAGONALS[0], Square::H1.bitboard().0);"
                )
            ),
            diagonals,
        ),
        Table::list(
            "ANTI_DIAGONALS",
            format!(
                "The 15 diagonals running up to the left (h1-a8 direction), indexed\nby `file + rank`: 0 is a1 alone, 7 the long diagonal h1-a8, 14 is h8 alone.{}",
                example(
                    "use bitboards::{tables::ANTI_DIAGONALS, Square};\nassert_eq!(ANTI_DIAGONALS[7] & Square::D5.bitboard().0, Square::D5.bitboard().0);\nassert_eq!(ANTI_DIAGONALS[14], Square::H8.bitboard().0);"
                )
            ),
            anti_diagonals,
        ),
        Table::list(
            "SQUARES",
            format!(
                "The single-square table (the literature's Piece table): entry `n`\nhas only square `n` set.{}",
                example(
                    "use bitboards::{tables::SQUARES, Square};\nassert_eq!(SQUARES[Square::D3.index()], 1 << 19);"
                )
            ),
            single,
        ),
        region(
            "LIGHT_SQUARES",
            "The 32 light squares (h1 is light, a1 dark).",
            ("H1", "A1"),
            squares_where(|file, rank| (file + rank) % 2 == 1),
        ),
        region(
            "DARK_SQUARES",
            "The 32 dark squares (a1 is dark).",
            ("A1", "H1"),
            squares_where(|file, rank| (file + rank) % 2 == 0),
        ),
        region(
            "CENTER",
            "The four centre squares d4, e4, d5 and e5.",
            ("E4", "E3"),
            squares_where(|file, rank| (3..=4).contains(&file) && (3..=4).contains(&rank)),
        ),
        region(
            "BIG_CENTER",
            "The 16 squares c3 to f6.",
            ("C3", "B2"),
            squares_where(|file, rank| (2..=5).contains(&file) && (2..=5).contains(&rank)),
        ),
        region(
            "EDGES",
            "The 28 squares on the edge of the board.",
            ("A5", "B5"),
            squares_where(|file, rank| file == 0 || file == 7 || rank == 0 || rank == 7),
        ),
        region(
            "CORNERS",
            "The four corners a1, h1, a8 and h8.",
            ("H8", "G8"),
            squares_where(|file, rank| (file == 0 || file == 7) && (rank == 0 || rank == 7)),
        ),
        region(
            "BACK_RANKS",
            "Ranks 1 and 8, where the pieces start and pawns promote.",
            ("D8", "D7"),
            squares_where(|_, rank| rank == 0 || rank == 7),
        ),
        region(
            "KINGSIDE",
            "Files e to h.",
            ("E4", "D4"),
            squares_where(|file, _| file >= 4),
        ),
        region(
            "QUEENSIDE",
            "Files a to d.",
            ("D4", "E4"),
            squares_where(|file, _| file <= 3),
        ),
    ]
}

/// A named region, documented with one square inside it and one outside.
fn region(name: &'static str, doc: &str, (inside, outside): (&str, &str), value: u64) -> Table {
    let code = format!(
        "use bitboards::{{tables::{name}, Square}};\n\
         assert_ne!({name} & Square::{inside}.bitboard().0, 0);\n\
         assert_eq!({name} & Square::{outside}.bitboard().0, 0);"
    );
    Table::word(name, format!("{doc}{}", example(&code)), value)
}

const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

fn leapers() -> Vec<Table> {
    vec![
        Table::list(
            "KNIGHT_ATTACKS",
            format!(
                "The squares a knight attacks from each square.{}",
                example(
                    "use bitboards::{tables::KNIGHT_ATTACKS, Square};\n// From a1: b3 and c2.\nassert_eq!(KNIGHT_ATTACKS[Square::A1.index()], (Square::B3.bitboard() | Square::C2.bitboard()).0);"
                )
            ),
            leaps(&KNIGHT_JUMPS),
        ),
        Table::list(
            "KING_ATTACKS",
            format!(
                "The squares a king attacks from each square.{}",
                example(
                    "use bitboards::{tables::KING_ATTACKS, Square};\nassert_eq!(KING_ATTACKS[Square::E4.index()].count_ones(), 8);\nassert_eq!(KING_ATTACKS[Square::H8.index()].count_ones(), 3);"
                )
            ),
            leaps(&DIRECTIONS),
        ),
        Table::grid(
            "PAWN_ATTACKS",
            format!(
                "The squares a pawn attacks, by colour (White 0, Black 1) then square.\nDefined for pawns on every rank, so it also answers \"which pawns attack this square\".{}",
                example(
                    "use bitboards::{tables::PAWN_ATTACKS, Color, Square};\nlet e4 = PAWN_ATTACKS[Color::White.index()][Square::E4.index()];\nassert_eq!(e4, (Square::D5.bitboard() | Square::F5.bitboard()).0);"
                )
            ),
            vec![leaps(&[(-1, 1), (1, 1)]), leaps(&[(-1, -1), (1, -1)])],
        ),
        Table::grid(
            "PAWN_PUSHES",
            format!(
                "The square one step forward for a pawn, by colour then square (empty on the far rank).{}",
                example(
                    "use bitboards::{tables::PAWN_PUSHES, Color, Square};\nassert_eq!(PAWN_PUSHES[Color::Black.index()][Square::E7.index()], Square::E6.bitboard().0);"
                )
            ),
            vec![leaps(&[(0, 1)]), leaps(&[(0, -1)])],
        ),
    ]
}

fn rays() -> Vec<Table> {
    let mut between = vec![vec![0u64; 64]; 64];
    let mut line = vec![vec![0u64; 64]; 64];
    for from in 0..64 {
        let (file, rank) = coords(from);
        for direction in DIRECTIONS {
            let (df, dr) = direction;
            let whole = bit(file, rank).unwrap_or(0)
                | ray(file, rank, direction).fold(0, |a, b| a | b)
                | ray(file, rank, (-df, -dr)).fold(0, |a, b| a | b);
            let mut passed = 0u64;
            for to in ray(file, rank, direction) {
                let to_index = to.trailing_zeros() as usize;
                between[from][to_index] = passed;
                line[from][to_index] = whole;
                passed |= to;
            }
        }
    }
    vec![
        Table::grid(
            "BETWEEN",
            format!(
                "`BETWEEN[a][b]`: the squares strictly between `a` and `b` when they share a\nrank, file or diagonal; empty otherwise.{}",
                example(
                    "use bitboards::{tables::BETWEEN, Square};\nassert_eq!(BETWEEN[Square::A1.index()][Square::D4.index()], (Square::B2.bitboard() | Square::C3.bitboard()).0);\nassert_eq!(BETWEEN[Square::A1.index()][Square::B3.index()], 0);"
                )
            ),
            between,
        ),
        Table::grid(
            "LINE",
            format!(
                "`LINE[a][b]`: the whole rank, file or diagonal through `a` and `b`, edge to\nedge; empty when they share none (or are the same square).{}",
                example(
                    "use bitboards::{tables::{LINE, FILES}, Square};\nassert_eq!(LINE[Square::E2.index()][Square::E7.index()], FILES[4]);\nassert_eq!(LINE[Square::A1.index()][Square::B3.index()], 0);"
                )
            ),
            line,
        ),
    ]
}

/// The registry of names, a `phf::Map<&'static str, u64>`, built from the
/// squares and the named masks.
fn names(masks: &[Table]) -> (TableInfo, TokenStream) {
    let find = |name: &str| masks.iter().find(|t| t.name() == name).map(Table::values);
    let mut entries: Vec<(String, u64)> = Vec::new();
    for index in 0..64 {
        let (file, rank) = coords(index);
        entries.push((square_name(index), bit(file, rank).unwrap_or(0)));
    }
    for (i, &mask) in find("FILES").unwrap_or_default().iter().enumerate() {
        entries.push((format!("file_{}", (b'a' + i as u8) as char), mask));
    }
    for (i, &mask) in find("RANKS").unwrap_or_default().iter().enumerate() {
        entries.push((format!("rank_{}", i + 1), mask));
    }
    for table in masks.iter().filter(|t| t.is_word()) {
        entries.push((table.name().to_lowercase(), table.values()[0]));
    }
    entries.push(("empty".into(), 0));
    entries.push(("full".into(), !0));

    let mut map = phf_codegen::Map::new();
    for (name, value) in &entries {
        map.entry(name.as_str(), format!("{value:#018x}"));
    }
    let expression: TokenStream = map
        .build()
        .to_string()
        .parse()
        .expect("phf_codegen writes a valid expression");
    let doc = format!(
        "Every name [`Bitboard::from_name`](crate::FromName::from_name) knows: the squares\n(`\"e4\"`), `\"file_a\"`..`\"file_h\"`, `\"rank_1\"`..`\"rank_8\"`, the named regions in\nlower case (`\"light_squares\"`, `\"center\"`, ...), `\"empty\"` and `\"full\"`.{}",
        example(
            "use bitboards::tables::NAMES;\nassert_eq!(NAMES.get(\"e4\"), Some(&(1 << 28)));\nassert_eq!(NAMES.get(\"file_a\"), Some(&0x0101_0101_0101_0101));"
        )
    );
    let doc = render::doc_attributes(&doc);
    let item = quote::quote! {
        #doc
        pub static NAMES: ::phf::Map<&'static str, u64> = #expression;
    };
    let info = TableInfo {
        name: "NAMES".into(),
        entries: entries.len(),
        bytes: entries.len() * std::mem::size_of::<(&str, u64)>(),
    };
    (info, item)
}
