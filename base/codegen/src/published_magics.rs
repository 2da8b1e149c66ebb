//! Volker Annuss's fixed-shift fancy magics ("fixed shift (white) magics"),
//! published on the TalkChess (CCC) forum:
//! <http://www.talkchess.com/forum/viewtopic.php?p=727500&t=64790> (thread t=64790).
//! The numbers were read from GitHub niklasf/shakmaty, `src/magics.rs` at commit
//! d6a45b77a7ce532cea26582f581fb4e8e77f94ed (its header: "Fixed shift white magics
//! found by Volker Annuss. From: ...p=727500&t=64790"), and cross-checked against
//! syzygy1/Cfish `src/magic-plain.c` (all 128 pairs identical).
//!
//! Only the numbers are taken; masks, attacks and the table are computed (and
//! every entry verified) by [`crate::magics`]. Each entry is `(factor, offset)`
//! for squares a1 = 0 .. h8 = 63; the index into the shared table is
//! `((occupied & mask) * factor) >> shift` (wrapping multiply) plus `offset`,
//! with shift 52 for rooks and 55 for bishops.

/// The shift of every rook square (12 index bits).
pub const ROOK_SHIFT: u32 = 52;

/// The shift of every bishop square (9 index bits).
pub const BISHOP_SHIFT: u32 = 55;

/// The length of the one attack table that rooks and bishops share.
pub const TABLE_SIZE: usize = 88_772;

/// `(factor, offset)` of each rook square, a1 to h8.
pub const ROOK: [(u64, u32); 64] = [
    (0x00280077ffebfffe, 26304), // a1
    (0x2004010201097fff, 35520), // b1
    (0x0010020010053fff, 38592), // c1
    (0x0040040008004002, 8026),  // d1
    (0x7fd00441ffffd003, 22196), // e1
    (0x4020008887dffffe, 80870), // f1
    (0x004000888847ffff, 76747), // g1
    (0x006800fbff75fffd, 30400), // h1
    (0x000028010113ffff, 11115), // a2
    (0x0020040201fcffff, 18205), // b2
    (0x007fe80042ffffe8, 53577), // c2
    (0x00001800217fffe8, 62724), // d2
    (0x00001800073fffe8, 34282), // e2
    (0x00001800e05fffe8, 29196), // f2
    (0x00001800602fffe8, 23806), // g2
    (0x000030002fffffa0, 49481), // h2
    (0x00300018010bffff, 2410),  // a3
    (0x0003000c0085fffb, 36498), // b3
    (0x0004000802010008, 24478), // c3
    (0x0004002020020004, 10074), // d3
    (0x0001002002002001, 79315), // e3
    (0x0001001000801040, 51779), // f3
    (0x0000004040008001, 13586), // g3
    (0x0000006800cdfff4, 19323), // h3
    (0x0040200010080010, 70612), // a4
    (0x0000080010040010, 83652), // b4
    (0x0004010008020008, 63110), // c4
    (0x0000040020200200, 34496), // d4
    (0x0002008010100100, 84966), // e4
    (0x0000008020010020, 54341), // f4
    (0x0000008020200040, 60421), // g4
    (0x0000820020004020, 86402), // h4
    (0x00fffd1800300030, 50245), // a5
    (0x007fff7fbfd40020, 76622), // b5
    (0x003fffbd00180018, 84676), // c5
    (0x001fffde80180018, 78757), // d5
    (0x000fffe0bfe80018, 37346), // e5
    (0x0001000080202001, 370),   // f5
    (0x0003fffbff980180, 42182), // g5
    (0x0001fffdff9000e0, 45385), // h5
    (0x00fffefeebffd800, 61659), // a6
    (0x007ffff7ffc01400, 12790), // b6
    (0x003fffbfe4ffe800, 16762), // c6
    (0x001ffff01fc03000, 0),     // d6
    (0x000fffe7f8bfe800, 38380), // e6
    (0x0007ffdfdf3ff808, 11098), // f6
    (0x0003fff85fffa804, 21803), // g6
    (0x0001fffd75ffa802, 39189), // h6
    (0x00ffffd7ffebffd8, 58628), // a7
    (0x007fff75ff7fbfd8, 44116), // b7
    (0x003fff863fbf7fd8, 78357), // c7
    (0x001fffbfdfd7ffd8, 44481), // d7
    (0x000ffff810280028, 64134), // e7
    (0x0007ffd7f7feffd8, 41759), // f7
    (0x0003fffc0c480048, 1394),  // g7
    (0x0001ffffafd7ffd8, 40910), // h7
    (0x00ffffe4ffdfa3ba, 66516), // a8
    (0x007fffef7ff3d3da, 3897),  // b8
    (0x003fffbfdfeff7fa, 3930),  // c8
    (0x001fffeff7fbfc22, 72934), // d8
    (0x0000020408001001, 72662), // e8
    (0x0007fffeffff77fd, 56325), // f8
    (0x0003ffffbf7dfeec, 66501), // g8
    (0x0001ffff9dffa333, 14826), // h8
];

/// `(factor, offset)` of each bishop square, a1 to h8.
pub const BISHOP: [(u64, u32); 64] = [
    (0x007fbfbfbfbfbfff, 5378),  // a1
    (0x0000a060401007fc, 4093),  // b1
    (0x0001004008020000, 4314),  // c1
    (0x0000806004000000, 6587),  // d1
    (0x0000100400000000, 6491),  // e1
    (0x000021c100b20000, 6330),  // f1
    (0x0000040041008000, 5609),  // g1
    (0x00000fb0203fff80, 22236), // h1
    (0x0000040100401004, 6106),  // a2
    (0x0000020080200802, 5625),  // b2
    (0x0000004010202000, 16785), // c2
    (0x0000008060040000, 16817), // d2
    (0x0000004402000000, 6842),  // e2
    (0x0000000801008000, 7003),  // f2
    (0x000007efe0bfff80, 4197),  // g2
    (0x0000000820820020, 7356),  // h2
    (0x0000400080808080, 4602),  // a3
    (0x00021f0100400808, 4538),  // b3
    (0x00018000c06f3fff, 29531), // c3
    (0x0000258200801000, 45393), // d3
    (0x0000240080840000, 12420), // e3
    (0x000018000c03fff8, 15763), // f3
    (0x00000a5840208020, 5050),  // g3
    (0x0000020008208020, 4346),  // h3
    (0x0000804000810100, 6074),  // a4
    (0x0001011900802008, 7866),  // b4
    (0x0000804000810100, 32139), // c4
    (0x000100403c0403ff, 57673), // d4
    (0x00078402a8802000, 55365), // e4
    (0x0000101000804400, 15818), // f4
    (0x0000080800104100, 5562),  // g4
    (0x00004004c0082008, 6390),  // h4
    (0x0001010120008020, 7930),  // a5
    (0x000080809a004010, 13329), // b5
    (0x0007fefe08810010, 7170),  // c5
    (0x0003ff0f833fc080, 27267), // d5
    (0x007fe08019003042, 53787), // e5
    (0x003fffefea003000, 5097),  // f5
    (0x0000101010002080, 6643),  // g5
    (0x0000802005080804, 6138),  // h5
    (0x0000808080a80040, 7418),  // a6
    (0x0000104100200040, 7898),  // b6
    (0x0003ffdf7f833fc0, 42012), // c6
    (0x0000008840450020, 57350), // d6
    (0x00007ffc80180030, 22813), // e6
    (0x007fffdd80140028, 56693), // f6
    (0x00020080200a0004, 5818),  // g6
    (0x0000101010100020, 7098),  // h6
    (0x0007ffdfc1805000, 4451),  // a7
    (0x0003ffefe0c02200, 4709),  // b7
    (0x0000000820806000, 4794),  // c7
    (0x0000000008403000, 13364), // d7
    (0x0000000100202000, 4570),  // e7
    (0x0000004040802000, 4282),  // f7
    (0x0004010040100400, 14964), // g7
    (0x00006020601803f4, 4026),  // h7
    (0x0003ffdfdfc28048, 4826),  // a8
    (0x0000000820820020, 7354),  // b8
    (0x0000000008208060, 4848),  // c8
    (0x0000000000808020, 15946), // d8
    (0x0000000001002020, 14932), // e8
    (0x0000000401002008, 16588), // f8
    (0x0000004040404040, 6905),  // g8
    (0x007fff9fdf7ff813, 16076), // h8
];
