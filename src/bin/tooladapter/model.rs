//! `--model-family`: the target a command converts into or checks against, when the
//! provider's API serves models of several families whose facts differ (Bedrock Converse).

use std::process::ExitCode;

use tooladapter::{Adapter, Format, ModelFamily, Strict};

use crate::and_list;

/// The target `--to` names, held to `--model-family`'s facts when one is given: refuses a
/// family for a format without families, and `--strict` for a family without a strict mode
/// (exit 2, a usage error).
pub(crate) fn target(
    to: Format,
    family: Option<ModelFamily>,
    strict: Option<Strict>,
) -> Result<&'static dyn Adapter, ExitCode> {
    let Some(family) = family else {
        return Ok(to.adapter());
    };
    let base = ModelFamily::BASE;
    if !ModelFamily::belongs_to(to.name()) {
        error!("usage"; "--model-family selects a family of models behind {base}; it needs --to {base}");
        return Err(ExitCode::from(2));
    }
    if strict.is_some() && family.strict().is_none() {
        let with: Vec<&str> =
            ModelFamily::ALL.iter().filter(|f| f.strict().is_some()).map(|f| f.as_str()).collect();
        error!(
            "usage";
            "--strict: {base}'s {family} models have no documented strict mode (the {} family has one)",
            and_list(&with)
        );
        return Err(ExitCode::from(2));
    }
    Ok(family.adapter())
}
