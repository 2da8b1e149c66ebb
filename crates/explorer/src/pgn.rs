//! A masters game given back as PGN (`GET /masters/pgn/{id}`).

use std::fmt::Write;

use crate::model::winner_of;
use crate::read::GameView;

/// The game as Lichess's masters explorer writes it: `Event`, `Site`,
/// `Date`, `Round`, `White`, `Black`, `Result`, `WhiteElo`, `BlackElo`
/// (then `FEN` and `SetUp` for a game from a position), a blank line, and
/// the moves in SAN with their numbers on one line, ending with the
/// result.
pub(crate) fn masters_pgn(game: &GameView<'_>) -> Result<String, &'static str> {
    let [event, site, round, date] = game.masters.unwrap_or(["?", "?", "?", "????.??.??"]);
    let result = match winner_of(game.outcome) {
        Some(bitboards::Color::White) => "1-0",
        Some(bitboards::Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    let mut out = String::new();
    let white_elo = game.ratings[0].to_string();
    let black_elo = game.ratings[1].to_string();
    let mut tags = vec![
        ("Event", event),
        ("Site", site),
        ("Date", date),
        ("Round", round),
        ("White", game.names[0]),
        ("Black", game.names[1]),
        ("Result", result),
        ("WhiteElo", &white_elo),
        ("BlackElo", &black_elo),
    ];
    if !game.fen.is_empty() {
        tags.push(("FEN", game.fen));
        tags.push(("SetUp", "1"));
    }
    for (name, value) in tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{value}\"]");
    }
    out.push('\n');
    let mut first = true;
    game.replay(|position, mv| {
        let number = position.fullmove_number();
        let white = position.side_to_move() == bitboards::Color::White;
        if !first {
            out.push(' ');
        }
        if white {
            let _ = write!(out, "{number}. ");
        } else if first {
            let _ = write!(out, "{number}... ");
        }
        first = false;
        let _ = write!(out, "{}", position.san(mv));
    })?;
    if !first {
        out.push(' ');
    }
    out.push_str(result);
    out.push('\n');
    Ok(out)
}
