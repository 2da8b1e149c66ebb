//! The options an engine declares in its handshake (`option name ... type
//! ...`), and the values `setoption` may give them.

use std::fmt;

/// What an option is, as the engine declared it, with its default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check`: `true` or `false`.
    Check {
        /// The declared default.
        default: bool,
    },
    /// `type spin`: an integer from `min` to `max`.
    Spin {
        /// The declared default.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// `type combo`: one of `vars`.
    Combo {
        /// The declared default.
        default: String,
        /// The values it takes.
        vars: Vec<String>,
    },
    /// `type button`: no value; setting it does something (`Clear Hash`).
    Button,
    /// `type string`: any text on one line (`<empty>` is read as empty).
    String {
        /// The declared default.
        default: String,
    },
}

/// One option the engine declared.
///
/// ```
/// use bitboards_engine::{OptionKind, UciOption};
///
/// let hash = UciOption::parse("option name Hash type spin default 16 min 1 max 33554432").unwrap();
/// assert_eq!(hash.name, "Hash");
/// assert_eq!(hash.kind, OptionKind::Spin { default: 16, min: 1, max: 33554432 });
/// let style = UciOption::parse("option name Style type combo default Normal var Solid var Normal var Risky").unwrap();
/// assert!(matches!(style.kind, OptionKind::Combo { ref vars, .. } if vars.len() == 3));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    /// The name as declared (names are compared without regard to case).
    pub name: String,
    /// Its type, default and bounds.
    pub kind: OptionKind,
}

const KEYWORDS: [&str; 5] = ["type", "default", "min", "max", "var"];

impl UciOption {
    /// Reads an `option` line of the handshake; `None` when it declares no
    /// name or no known type.
    #[must_use]
    pub fn parse(line: &str) -> Option<UciOption> {
        let mut tokens = line.split_whitespace();
        if tokens.next() != Some("option") || tokens.next() != Some("name") {
            return None;
        }
        let mut name: Vec<&str> = Vec::new();
        let mut kind = None;
        let mut default: Option<Vec<&str>> = None;
        let mut min = None;
        let mut max = None;
        let mut vars: Vec<Vec<&str>> = Vec::new();
        // The field the next plain token belongs to.
        let mut field = "name";
        for token in tokens {
            // In the name only `type` ends it: names may hold other words.
            let keyword = if field == "name" {
                token == "type"
            } else {
                KEYWORDS.contains(&token)
            };
            if keyword {
                field = token;
                match token {
                    "default" => default = Some(Vec::new()),
                    "var" => vars.push(Vec::new()),
                    _ => {}
                }
                continue;
            }
            match field {
                "name" => name.push(token),
                "type" => kind = kind.or(Some(token)),
                "default" => default.get_or_insert_with(Vec::new).push(token),
                "min" => min = min.or_else(|| token.parse::<i64>().ok()),
                "max" => max = max.or_else(|| token.parse::<i64>().ok()),
                "var" => {
                    if let Some(var) = vars.last_mut() {
                        var.push(token);
                    }
                }
                _ => {}
            }
        }
        if name.is_empty() {
            return None;
        }
        let default = default.map(|words| words.join(" "));
        let kind = match kind? {
            "check" => OptionKind::Check {
                default: default.is_some_and(|d| d.eq_ignore_ascii_case("true")),
            },
            "spin" => {
                let min = min.unwrap_or(i64::MIN);
                let max = max.unwrap_or(i64::MAX);
                let default = default.and_then(|d| d.parse().ok()).unwrap_or(min.max(0));
                OptionKind::Spin { default, min, max }
            }
            "combo" => OptionKind::Combo {
                default: default.unwrap_or_default(),
                vars: vars.into_iter().map(|var| var.join(" ")).collect(),
            },
            "button" => OptionKind::Button,
            "string" => OptionKind::String {
                default: default.filter(|d| d != "<empty>").unwrap_or_default(),
            },
            _ => return None,
        };
        Some(UciOption {
            name: name.join(" "),
            kind,
        })
    }

    /// The text `setoption` sends for `value` (`None`: a button, no
    /// value), or what the option takes instead.
    ///
    /// ```
    /// use bitboards_engine::{OptionValue, UciOption};
    ///
    /// let threads = UciOption::parse("option name Threads type spin default 1 min 1 max 1024").unwrap();
    /// assert_eq!(threads.check(&OptionValue::from(4)), Ok(Some("4".to_owned())));
    /// assert_eq!(threads.check(&OptionValue::from("8")), Ok(Some("8".to_owned())));
    /// assert_eq!(threads.check(&OptionValue::from(0)), Err("an integer from 1 to 1024".to_owned()));
    /// ```
    pub fn check(&self, value: &OptionValue) -> Result<Option<String>, String> {
        match (&self.kind, value) {
            (OptionKind::Check { .. }, OptionValue::Bool(b)) => Ok(Some(b.to_string())),
            (OptionKind::Check { .. }, OptionValue::Text(text))
                if text.eq_ignore_ascii_case("true") || text.eq_ignore_ascii_case("false") =>
            {
                Ok(Some(text.to_ascii_lowercase()))
            }
            (OptionKind::Check { .. }, _) => Err("`true` or `false`".to_owned()),
            (OptionKind::Spin { min, max, .. }, value) => {
                let number = match value {
                    OptionValue::Int(n) => Some(*n),
                    OptionValue::Text(text) => text.trim().parse::<i64>().ok(),
                    _ => None,
                };
                match number {
                    Some(n) if (*min..=*max).contains(&n) => Ok(Some(n.to_string())),
                    _ => Err(format!("an integer from {min} to {max}")),
                }
            }
            (OptionKind::Combo { vars, .. }, value) => {
                let text = match value {
                    OptionValue::Text(text) => Some(text.clone()),
                    OptionValue::Int(n) => Some(n.to_string()),
                    OptionValue::Bool(b) => Some(b.to_string()),
                    OptionValue::Button => None,
                };
                text.and_then(|text| vars.iter().find(|var| var.eq_ignore_ascii_case(&text)))
                    .map(|var| Some(var.clone()))
                    .ok_or_else(|| format!("one of: {}", vars.join(", ")))
            }
            (OptionKind::Button, OptionValue::Button) => Ok(None),
            (OptionKind::Button, _) => Err("no value (a button: `OptionValue::Button`)".to_owned()),
            (OptionKind::String { .. }, value) => {
                let text = match value {
                    OptionValue::Text(text) => Some(text.clone()),
                    OptionValue::Int(n) => Some(n.to_string()),
                    OptionValue::Bool(b) => Some(b.to_string()),
                    OptionValue::Button => None,
                };
                text.filter(|text| !text.contains(['\n', '\r']))
                    .map(Some)
                    .ok_or_else(|| "text on one line".to_owned())
            }
        }
    }
}

/// A value for `setoption`: from a `bool`, an integer or text (text is read
/// as the option's type: `"64"` sets a spin, `"true"` a check).
///
/// ```
/// use bitboards_engine::OptionValue;
///
/// assert_eq!(OptionValue::from(64), OptionValue::Int(64));
/// assert_eq!(OptionValue::from("Risky"), OptionValue::Text("Risky".into()));
/// assert_eq!(OptionValue::from(true).to_string(), "true");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// For a check.
    Bool(bool),
    /// For a spin.
    Int(i64),
    /// For a string or combo (or any type, read as it).
    Text(String),
    /// Presses a button.
    Button,
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(n) => write!(f, "{n}"),
            OptionValue::Text(text) => f.write_str(text),
            OptionValue::Button => f.write_str("(button)"),
        }
    }
}

impl From<bool> for OptionValue {
    fn from(value: bool) -> Self {
        OptionValue::Bool(value)
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for OptionValue {
            fn from(value: $t) -> Self {
                OptionValue::Int(i64::from(value))
            }
        }
    )*};
}
from_int!(i8, i16, i32, i64, u8, u16, u32);

impl From<usize> for OptionValue {
    fn from(value: usize) -> Self {
        OptionValue::Int(i64::try_from(value).unwrap_or(i64::MAX))
    }
}

impl From<&str> for OptionValue {
    fn from(value: &str) -> Self {
        OptionValue::Text(value.to_owned())
    }
}

impl From<String> for OptionValue {
    fn from(value: String) -> Self {
        OptionValue::Text(value)
    }
}

/// The options an engine declared, in its order; looked up by name without
/// regard to case, as UCI says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    list: Vec<UciOption>,
}

impl Options {
    /// The option named `name` (any case).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&UciOption> {
        self.list
            .iter()
            .find(|option| option.name.eq_ignore_ascii_case(name))
    }

    /// Every option, in the engine's order.
    pub fn iter(&self) -> std::slice::Iter<'_, UciOption> {
        self.list.iter()
    }

    /// How many options the engine declared.
    #[must_use]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether the engine declared none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Every name, in the engine's order.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        self.list.iter().map(|option| option.name.clone()).collect()
    }

    /// Adds a declared option; a second declaration of a name replaces the
    /// first.
    pub(crate) fn insert(&mut self, option: UciOption) {
        match self
            .list
            .iter_mut()
            .find(|known| known.name.eq_ignore_ascii_case(&option.name))
        {
            Some(known) => *known = option,
            None => self.list.push(option),
        }
    }
}

impl<'a> IntoIterator for &'a Options {
    type Item = &'a UciOption;
    type IntoIter = std::slice::Iter<'a, UciOption>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_of_every_type() {
        let parse = |line| UciOption::parse(line).unwrap();
        assert_eq!(
            parse("option name Clear Hash type button"),
            UciOption {
                name: "Clear Hash".into(),
                kind: OptionKind::Button
            }
        );
        assert_eq!(
            parse("option name SyzygyPath type string default <empty>").kind,
            OptionKind::String {
                default: String::new()
            }
        );
        assert_eq!(
            parse("option name Debug Log File type string default").kind,
            OptionKind::String {
                default: String::new()
            }
        );
        assert_eq!(
            parse("option name UCI_Chess960 type check default false").kind,
            OptionKind::Check { default: false }
        );
        assert_eq!(
            parse("option name Style type combo default Very Solid var Very Solid var Risky").kind,
            OptionKind::Combo {
                default: "Very Solid".into(),
                vars: vec!["Very Solid".into(), "Risky".into()]
            }
        );
        assert_eq!(UciOption::parse("option name X type frobnicate"), None);
        assert_eq!(UciOption::parse("option type spin"), None);
        assert_eq!(UciOption::parse("option name Y"), None);
        assert_eq!(UciOption::parse("optional"), None);
    }

    #[test]
    fn values_checked_against_the_declaration() {
        let combo =
            UciOption::parse("option name Style type combo default Normal var Solid var Normal")
                .unwrap();
        assert_eq!(combo.check(&"solid".into()), Ok(Some("Solid".into())));
        assert_eq!(
            combo.check(&"Wild".into()),
            Err("one of: Solid, Normal".into())
        );
        let check = UciOption::parse("option name Ponder type check default false").unwrap();
        assert_eq!(check.check(&"TRUE".into()), Ok(Some("true".into())));
        assert_eq!(check.check(&1.into()), Err("`true` or `false`".into()));
        let button = UciOption::parse("option name Clear Hash type button").unwrap();
        assert_eq!(button.check(&OptionValue::Button), Ok(None));
        assert!(button.check(&"x".into()).is_err());
        let string =
            UciOption::parse("option name SyzygyPath type string default <empty>").unwrap();
        assert_eq!(string.check(&"/tb".into()), Ok(Some("/tb".into())));
        assert!(string.check(&"a\nquit".into()).is_err());
    }
}
