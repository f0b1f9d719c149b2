//! Call ids across providers: kept where the target's rule admits them, rewritten where it
//! does not, made where the source has none, and given back from a caller's [`Ids`] map.
//!
//! Every id this module writes is a pure function of what both a call and its result carry,
//! so a conversion of the calls and a later, separate conversion of their results agree
//! without shared state:
//! - a rewritten id depends on the source id alone (the same id is rewritten the same way
//!   wherever it appears);
//! - a made id depends on the calls turn's position (its place among the conversation's turns
//!   that carry calls, 0 for a payload of one turn), the tool's name and the call's occurrence
//!   among that turn's calls of the same name, which a results turn without ids (Gemini 2.x)
//!   repeats in the same order.
//!
//! The hash is 64-bit FNV-1a, written out here so the ids never change with a dependency.

use std::fmt::Write as _;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::rules::IdRule;

/// 64-bit FNV-1a over `parts`, each followed by a separator byte that no part ends with
/// ambiguously (`0xff` is never in UTF-8).
pub(crate) fn fnv(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part.iter().chain(&[0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// `len` base-62 digits of `seed` (repeating its digits past eleven).
fn base62(mut seed: u64, len: usize, out: &mut String) {
    let start = seed;
    for i in 0..len {
        if i % 11 == 0 && i > 0 {
            seed = fnv(&[&start.to_le_bytes(), &i.to_le_bytes()]);
        }
        let digit = BASE62.get((seed % 62) as usize).copied().unwrap_or(b'0');
        out.push(char::from(digit));
        seed /= 62;
    }
}

/// The id made for a call without one: `call_` and 16 hex digits of the hash of `(turn,
/// name, occurrence)` where the rule takes it, else as many base-62 digits as the rule wants
/// (OpenAI-compatible endpoints that want nine alphanumerics).
pub(crate) fn made_id(rule: &IdRule, turn: u32, name: &str, occurrence: u32, out: &mut String) {
    let seed = fnv(&[b"call", &turn.to_le_bytes(), name.as_bytes(), &occurrence.to_le_bytes()]);
    let start = out.len();
    let _ = write!(out, "call_{seed:016x}");
    if rule.accepts(out.get(start..).unwrap_or_default()) {
        return;
    }
    out.truncate(start);
    base62(seed, digits_for(rule), out);
}

/// How many base-62 digits an id made for `rule` has: eleven (a 64-bit hash), within the
/// rule's lengths.
fn digits_for(rule: &IdRule) -> usize {
    11usize.clamp(rule.min.max(1), rule.max.max(1))
}

/// `id` rewritten to obey `rule`: its characters the rule refuses replaced by `_` (or left
/// out where `_` is refused too), cut to fit, and a hash of the whole id appended so that two
/// ids rewritten alike stay apart; where that cannot fit, base-62 digits of the hash alone.
pub(crate) fn rewritten_id(rule: &IdRule, id: &str, out: &mut String) {
    let seed = fnv(&[id.as_bytes()]);
    let start = out.len();
    let underscore = rule.allows(b'_');
    if underscore && rule.max >= 12 {
        let keep = rule.max - 9;
        for &c in id.as_bytes().iter().take(keep) {
            out.push(if rule.allows(c) && c.is_ascii() { char::from(c) } else { '_' });
        }
        let _ = write!(out, "_{:08x}", seed as u32);
        if rule.accepts(out.get(start..).unwrap_or_default()) {
            return;
        }
        out.truncate(start);
    }
    base62(seed, digits_for(rule), out);
}

/// The ids a conversion wrote for its calls, each with the id it replaced and the call's tool,
/// for a later conversion of the same calls or of their results (pass it as
/// [`crate::TrafficOptions::ids`]): rewritten and made ids are given back as they were, and a
/// result that does not name its tool (an OpenAI tool message) is named for a target that
/// needs the name (Gemini).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ids {
    /// Each id written, with the id it replaced and the tool called.
    pub pairs: Vec<IdPair>,
}

/// One id a conversion wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdPair {
    /// The id in the source (empty when the source had none).
    pub original: String,
    /// The id written (the original when it was kept).
    pub written: String,
    /// The tool the call called (empty for a result's id).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
}

impl Ids {
    /// The original id of `written`, if this map made or rewrote it.
    pub fn original(&self, written: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|p| p.written == written && p.original != written)
            .map(|p| p.original.as_str())
    }

    /// The tool called by the call written with id `written` (or whose original id it is).
    pub fn name(&self, id: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|p| (p.written == id || p.original == id) && !p.name.is_empty())
            .map(|p| p.name.as_str())
    }
}

/// The ids a conversion wrote, as it records them: spans over one text buffer kept from one
/// conversion to the next (no allocation once warm); the [`Ids`] is made on first use.
#[derive(Clone, Debug, Default)]
pub(crate) struct IdLog {
    text: String,
    /// Where each pair's original, written id and name end in `text`.
    pairs: Vec<(u32, u32, u32, u32)>,
    made: OnceLock<Ids>,
}

impl IdLog {
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.pairs.clear();
        self.made.take();
    }

    /// Records that `written` replaced `original` (the same for an id kept), for a call of
    /// `name` (empty for a result).
    pub(crate) fn push(&mut self, original: &str, written: &str, name: &str) {
        let start = self.text.len() as u32;
        self.text.push_str(original);
        let a = self.text.len() as u32;
        self.text.push_str(written);
        let b = self.text.len() as u32;
        self.text.push_str(name);
        let c = self.text.len() as u32;
        self.pairs.push((start, a, b, c));
    }

    pub(crate) fn get(&self) -> &Ids {
        self.made.get_or_init(|| Ids {
            pairs: self
                .pairs
                .iter()
                .map(|&(s, a, b, c)| {
                    let part = |x: u32, y: u32| {
                        self.text.get(x as usize..y as usize).unwrap_or_default().to_owned()
                    };
                    IdPair { original: part(s, a), written: part(a, b), name: part(b, c) }
                })
                .collect(),
        })
    }

    pub(crate) fn retained_bytes(&self) -> usize {
        self.text.capacity() + self.pairs.capacity() * 16
    }
}

impl PartialEq for IdLog {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl Eq for IdLog {}

#[cfg(test)]
mod tests {
    use super::*;

    const ANTHROPIC: IdRule = IdRule {
        required: true,
        extra: Some("_-"),
        min: 1,
        max: usize::MAX,
        pattern: "^[a-zA-Z0-9_-]+$",
        source: "",
    };
    const NINE: IdRule =
        IdRule { required: true, extra: Some(""), min: 9, max: 9, pattern: "", source: "" };
    const FORTY: IdRule =
        IdRule { required: true, extra: None, min: 1, max: 40, pattern: "", source: "" };

    #[test]
    fn made_ids_obey_the_rule_and_depend_on_turn_name_and_occurrence() {
        for rule in [ANTHROPIC, NINE, FORTY, IdRule::ANY] {
            let mut seen = std::collections::HashSet::new();
            for turn in 0..3 {
                for name in ["a", "b", "get.weather:x"] {
                    for occurrence in 0..3 {
                        let mut out = String::new();
                        made_id(&rule, turn, name, occurrence, &mut out);
                        assert!(rule.accepts(&out), "{out} for {rule:?}");
                        let mut again = String::new();
                        made_id(&rule, turn, name, occurrence, &mut again);
                        assert_eq!(out, again, "deterministic");
                        assert!(seen.insert(out), "distinct");
                    }
                }
            }
        }
    }

    #[test]
    fn rewritten_ids_obey_the_rule_and_stay_apart() {
        let ids = [
            "functions.get_temperature:0",
            "functions.get_temperature_0",
            "a|b",
            "x".repeat(80).leak(),
        ];
        for rule in [ANTHROPIC, NINE, FORTY] {
            let mut seen = std::collections::HashSet::new();
            for id in ids {
                let mut out = String::new();
                rewritten_id(&rule, id, &mut out);
                assert!(rule.accepts(&out), "{out} for {rule:?}");
                assert!(seen.insert(out), "two ids rewritten alike");
            }
        }
    }

    #[test]
    fn the_log_gives_ids_back() {
        let mut log = IdLog::default();
        log.push("a:b", "a_b_1234", "t");
        log.push("", "call_1", "u");
        log.push("kept", "kept", "v");
        assert_eq!(log.get().original("call_1"), Some(""));
        assert_eq!(log.get().original("kept"), None);
        assert_eq!(log.get().name("a:b"), Some("t"));
        assert_eq!(log.get().name("kept"), Some("v"));
        log.clear();
        assert!(log.get().pairs.is_empty());
    }
}
