//! Tests of the strict pass's helpers: required-name lookup, the static lists with `null`,
//! and how counts are written.

use super::push_count;
use super::widen::WITH_NULL;
use crate::ir::NameSet;

/// Required names are told apart as a slice comparison tells them, whatever their length
/// and wherever they differ.
#[test]
fn required_names_compare_as_slices_do() {
    let names: Vec<String> = (0..40)
        .flat_map(|n| {
            let base = "abcdefghijklmnopqrstuvwxyz0123456789ABCD".get(..n).unwrap_or("");
            let mut v = vec![base.to_owned()];
            for at in 0..n {
                let mut b = base.as_bytes().to_vec();
                if let Some(c) = b.get_mut(at) {
                    *c = b'_';
                }
                v.push(String::from_utf8(b).unwrap_or_default());
            }
            v
        })
        .collect();
    for a in &names {
        for b in &names {
            assert_eq!(NameSet::new(&[a.as_str()]).contains(b), a == b, "{a} {b}");
        }
    }
}

/// The static `[t, null]` lists are where `nullable` looks them up.
#[test]
fn each_type_has_its_list_with_null() {
    for t in crate::ir::JsonType::ALL {
        let list = WITH_NULL.get(t as usize).map(|l| l.as_slice());
        assert_eq!(list, Some([t, crate::ir::JsonType::Null].as_slice()));
    }
}

/// Written as `{n}` writes it, one digit or many, after what the buffer held.
#[test]
fn a_count_is_written_as_format_writes_it() {
    for n in (0..=120).chain([255, 256, 1_000, 65_535, usize::MAX]) {
        let mut out = String::from("x ");
        push_count(&mut out, n);
        assert_eq!(out, format!("x {n}"));
    }
}
