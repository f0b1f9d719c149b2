//! Reading the content of OpenAI Chat messages: a string, or text, image, audio and file
//! parts (a `data:` URL read as its inline data).

use crate::error::ConversionError;
use crate::ir::Json;
use crate::ir::traffic::{Block, Content, Media, Source};
use crate::pointer::{Path, Seg};
use crate::traffic::{Reader, data_url, get};

/// One content part of a message (or the whole content, a string).
pub(super) fn block<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Content<'a>, ConversionError> {
    let (pointer, at) = (rd.pointer(path), rd.at());
    let block = match v {
        Json::String(s) => Block::Text(s),
        Json::Object(m) => {
            let kind = rd.req_str(m, "type", path)?;
            let inner = |key: &str| {
                get(m, key).and_then(|v| match v {
                    Json::Object(o) => Some(*o),
                    _ => None,
                })
            };
            match kind {
                "text" => Block::Text(rd.req_str(m, "text", path)?),
                "image_url" => {
                    let url = inner("image_url")
                        .and_then(|o| get(o, "url"))
                        .and_then(Json::as_str)
                        .unwrap_or_default();
                    Block::Image(media_from_url(url, None))
                }
                "input_audio" => {
                    let o = inner("input_audio").unwrap_or_default();
                    let data = get(o, "data").and_then(Json::as_str).unwrap_or_default();
                    let format = get(o, "format").and_then(Json::as_str);
                    let media_type = match format {
                        Some("mp3") => Some("audio/mpeg"),
                        Some(_) => Some("audio/wav"),
                        None => None,
                    };
                    Block::Audio(Media { source: Source::Base64(data), media_type, name: None })
                }
                "file" => {
                    let o = inner("file").unwrap_or_default();
                    let name = get(o, "filename").and_then(Json::as_str);
                    let source = match (
                        get(o, "file_data").and_then(Json::as_str),
                        get(o, "file_id").and_then(Json::as_str),
                    ) {
                        (Some(data), _) => media_from_url(data, name),
                        (None, Some(id)) => {
                            Media { source: Source::File(id), media_type: None, name }
                        }
                        (None, None) => {
                            Media { source: Source::Base64(""), media_type: None, name }
                        }
                    };
                    Block::Document(source)
                }
                other => Block::Other(other),
            }
        }
        other => return Err(rd.wrong(path, "content", "a string or a content part", other)),
    };
    if let Json::Object(m) = v {
        for member in *m {
            if !matches!(member.key, "type" | "text" | "image_url" | "input_audio" | "file") {
                rd.extra(&path.push(Seg::Key(member.key)), member.key, &member.value, "");
            }
        }
    }
    Ok(Content { block, raw: *v, pointer, at })
}

/// A media block from a URL: a `data:` URL is its inline data.
fn media_from_url<'a>(url: &'a str, name: Option<&'a str>) -> Media<'a> {
    match data_url(url) {
        Some((mime, data)) => Media { source: Source::Base64(data), media_type: Some(mime), name },
        None => Media { source: Source::Url(url), media_type: None, name },
    }
}

/// A message's content: a string, parts, or nothing.
pub(super) fn content<'a>(
    rd: &mut Reader<'a, '_>,
    v: Option<&'a Json<'a>>,
    path: &Path<'_>,
) -> Result<&'a [Content<'a>], ConversionError> {
    let at = path.push(Seg::Key("content"));
    match v {
        None | Some(Json::Null) => Ok(&[]),
        Some(s @ Json::String(_)) => {
            let c = block(rd, s, &at)?;
            Ok(std::slice::from_ref(rd.alloc(c, &at)?))
        }
        Some(Json::Array(items)) => {
            let mut list = rd.list(items.len(), &at)?;
            for (i, item) in items.iter().enumerate() {
                list.push(block(rd, item, &at.push(Seg::Index(i)))?);
            }
            Ok(list.done())
        }
        Some(other) => Err(rd.wrong(&at, "content", "a string, an array or null", other)),
    }
}
