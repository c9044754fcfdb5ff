//! `hclwright lsp`: a language server over standard input and output, on
//! the `lsp-server` and `lsp-types` crates. A thin protocol layer: each
//! request is a call into the library (parse, format, refs, eval, json).
//!
//! - `text`: positions in the negotiated encoding (UTF-8 when the client
//!   offers it, else UTF-16) and incremental text sync;
//! - `diagnostics`: syntax errors (native or JSON) and undeclared
//!   `var.`/`local.` names;
//! - `format`: whole-document, range and on-type formatting as minimal
//!   edits, and the profile setting;
//! - `navigation`: hover, definition, references, rename, completion;
//! - `symbols`: document and workspace symbols, folding and selection
//!   ranges;
//! - `workspace`: open documents, URIs and the files of a folder;
//! - `worker`: hover and completion on worker threads, each under an
//!   evaluation budget and a cancellation flag.
//!
//! A thread reads the client's messages; the main loop owns the documents
//! and answers every other request itself, so a slow evaluation never
//! holds up formatting, symbols or changes.
//!
//! A panic while answering one request is caught, logged on standard
//! error and answered as an `InternalError`; the server keeps serving.

mod diagnostics;
mod format;
mod navigation;
mod symbols;
mod text;
mod worker;
mod workspace;

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::mpsc;

use hclwright::diff::TextEdit;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    CompletionOptions, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DocumentOnTypeFormattingOptions, HoverProviderCapability,
    InitializeParams, OneOf, Position, PositionEncodingKind, PublishDiagnosticsParams, Range,
    ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
    WorkspaceFoldersServerCapabilities, WorkspaceServerCapabilities,
};

use super::{EXIT_ERRORS, EXIT_OK};
use format::ProfileSetting;
use text::{Encoding, Lines};
use worker::{Event, Limits, Pool};
use workspace::{Doc, Docs};

/// Arguments of `lsp`.
#[derive(clap::Args, Debug)]
pub struct LspArgs {
    /// Accepted for editors that pass it; standard input and output are
    /// always used.
    #[arg(long)]
    stdio: bool,
}

/// Runs the server until the client shuts it down.
pub fn run(_args: LspArgs) -> i32 {
    let (connection, io_threads) = Connection::stdio();
    let code = match serve(&connection) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("hclwright lsp: {e}");
            EXIT_ERRORS
        }
    };
    drop(connection);
    let _ = io_threads.join();
    code
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

/// What the server holds between messages.
struct State {
    docs: Docs,
    encoding: Encoding,
    profile: ProfileSetting,
    /// The evaluation limits of hover and completion.
    limits: Limits,
    /// The workspace folders (for workspace symbols).
    roots: Vec<PathBuf>,
    symbol_cache: RefCell<symbols::SymbolCache>,
}

fn serve(connection: &Connection) -> Result<(), Failure> {
    let (id, params) = connection.initialize_start()?;
    let init: InitializeParams = serde_json::from_value(params)?;
    // UTF-8 when the client offers it, else the protocol's UTF-16.
    let offers_utf8 = init
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8));
    let encoding = if offers_utf8 {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    };
    connection.initialize_finish(
        id,
        serde_json::json!({
            "capabilities": capabilities(encoding),
            "serverInfo": {"name": "hclwright", "version": env!("CARGO_PKG_VERSION")},
        }),
    )?;
    let settings = init.initialization_options.clone().unwrap_or_default();
    let mut state = State {
        docs: Docs::new(),
        encoding,
        profile: ProfileSetting::from_settings(&settings).unwrap_or_default(),
        limits: Limits::default().updated(&settings),
        roots: roots(&init),
        symbol_cache: RefCell::default(),
    };
    // One channel for the client's messages (read on a thread of their
    // own) and the workers' answers.
    let (events, inbox) = mpsc::channel();
    let reader = connection.receiver.clone();
    let forward = events.clone();
    std::thread::Builder::new()
        .name("hclwright-lsp-reader".into())
        .spawn(move || {
            for message in reader {
                if forward.send(Event::Message(message)).is_err() {
                    return;
                }
            }
            let _ = forward.send(Event::Closed);
        })?;
    let mut pool = Pool::new(events);
    let mut shutting_down = false;
    // Documents whose diagnostics are to be published: after a burst of
    // changes (while more messages are waiting), once, for the last text.
    let mut stale: Vec<String> = Vec::new();
    let mut next: Option<Event> = None;
    loop {
        let event = match next.take() {
            Some(event) => event,
            None => match pool.wait() {
                Some(wait) => match inbox.recv_timeout(wait) {
                    Ok(event) => event,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        send_all(connection, pool.tick(&state.limits))?;
                        continue;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
                },
                None => match inbox.recv() {
                    Ok(event) => event,
                    Err(_) => return Ok(()),
                },
            },
        };
        match event {
            Event::Closed => return Ok(()),
            Event::Done(id, response) => {
                send_all(connection, pool.finished(&id, response, &state.limits))?;
            }
            Event::Message(Message::Request(request)) => {
                if shutting_down {
                    let refused = Response::new_err(
                        request.id.clone(),
                        ErrorCode::InvalidRequest as i32,
                        "the server is shutting down".into(),
                    );
                    send_all(connection, vec![refused])?;
                } else if request.method == "shutdown" {
                    shutting_down = true;
                    let mut answers = pool.cancel_all();
                    answers.push(Response::new_ok(request.id.clone(), ()));
                    send_all(connection, answers)?;
                } else if let Some((task, fallback)) = off_loop(&request, &state) {
                    send_all(
                        connection,
                        pool.submit(request, task, fallback, &state.limits),
                    )?;
                } else {
                    let response = answer(&request, |r| handle_request(r, &state));
                    send_all(connection, vec![response])?;
                }
            }
            Event::Message(Message::Notification(notification)) => {
                match notification.method.as_str() {
                    "exit" => return Ok(()),
                    "$/cancelRequest" => {
                        let id = match &notification.params["id"] {
                            serde_json::Value::Number(n) => n
                                .as_i64()
                                .and_then(|n| i32::try_from(n).ok())
                                .map(Into::into),
                            serde_json::Value::String(s) => Some(s.clone().into()),
                            _ => None,
                        };
                        if let Some(cancelled) = id.and_then(|id: RequestId| pool.cancel(&id)) {
                            send_all(connection, vec![cancelled])?;
                        }
                    }
                    _ => {
                        let method = notification.method.clone();
                        let changed =
                            caught(&method, || handle_notification(notification, &mut state))
                                .unwrap_or_default();
                        for uri in changed {
                            if !stale.contains(&uri) {
                                stale.push(uri);
                            }
                        }
                    }
                }
            }
            Event::Message(Message::Response(_)) => {}
        }
        if !stale.is_empty() {
            next = inbox.try_recv().ok();
            if next.is_none() {
                for uri in stale.drain(..) {
                    publish(connection, &uri, &state)?;
                }
            }
        }
    }
}

/// Sends responses to the client.
fn send_all(connection: &Connection, responses: Vec<Response>) -> Result<(), Failure> {
    for response in responses {
        connection.sender.send(Message::Response(response))?;
    }
    Ok(())
}

/// A request answered on a worker (hover and completion on an open
/// document of the native syntax: they evaluate, or read the files of a
/// folder): the work, with a snapshot of what it reads, and the answer
/// given if it does not end in time. `None` for the others, answered on
/// the main loop.
fn off_loop(request: &Request, state: &State) -> Option<(worker::Task, Response)> {
    let method = request.method.as_str();
    if !matches!(method, "textDocument/hover" | "textDocument/completion") {
        return None;
    }
    let uri = request.params["textDocument"]["uri"].as_str()?.to_string();
    let position = serde_json::from_value::<Position>(request.params["position"].clone()).ok()?;
    if workspace::is_json(&uri) {
        return None;
    }
    let doc = state.docs.get(&uri)?;
    let text = doc.text.clone();
    // The open documents of its folder: what either request reads.
    let folder = workspace::folder_of(&uri);
    let docs: Docs = state
        .docs
        .iter()
        .filter(|(other, _)| workspace::folder_of(other) == folder)
        .map(|(other, d)| {
            (
                other.clone(),
                Doc {
                    text: d.text.clone(),
                    version: d.version,
                    uses: Default::default(),
                },
            )
        })
        .collect();
    let encoding = state.encoding;
    let id = request.id.clone();
    let hover = method == "textDocument/hover";
    let fallback = if hover {
        Response::new_ok(
            id.clone(),
            navigation::not_evaluated(&state.limits.budget(Default::default())),
        )
    } else {
        Response::new_ok(id.clone(), serde_json::Value::Null)
    };
    let task: worker::Task = Box::new(move |budget| {
        let lines = Lines::new(&text, encoding);
        let at = lines.offset(position);
        if hover {
            Response::new_ok(
                id,
                navigation::hover(&uri, &text, at, &docs, &lines, budget),
            )
        } else {
            Response::new_ok(id, navigation::completion(&uri, &text, at, &docs, &lines))
        }
    });
    Some((task, fallback))
}

/// Sends the diagnostics of a document (a panic computing them is logged
/// and nothing is sent).
fn publish(connection: &Connection, uri: &str, state: &State) -> Result<(), Failure> {
    let Some((params, tree)) = caught("diagnostics", || diagnostics_of(uri, state)) else {
        return Ok(());
    };
    if let Some(params) = params {
        connection
            .sender
            .send(Message::Notification(Notification::new(
                "textDocument/publishDiagnostics".into(),
                params,
            )))?;
    }
    // Freed after the publication, not before it.
    drop(tree);
    Ok(())
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        document_on_type_formatting_provider: Some(DocumentOnTypeFormattingOptions {
            first_trigger_character: "}".into(),
            more_trigger_character: Some(vec!["\n".into()]),
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
        selection_range_provider: Some(lsp_types::SelectionRangeProviderCapability::Simple(true)),
        rename_provider: Some(OneOf::Right(lsp_types::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into()]),
            ..Default::default()
        }),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..ServerCapabilities::default()
    }
}

/// The workspace folders the client names (or its root).
#[allow(deprecated)] // `root_uri` and `root_path` are what older clients send.
fn roots(init: &InitializeParams) -> Vec<PathBuf> {
    if let Some(folders) = &init.workspace_folders {
        return folders
            .iter()
            .filter_map(|f| workspace::file_path(f.uri.as_str()))
            .collect();
    }
    if let Some(uri) = &init.root_uri {
        return workspace::file_path(uri.as_str()).into_iter().collect();
    }
    init.root_path.iter().map(PathBuf::from).collect()
}

/// Runs `f`, catching a panic: it is logged on standard error (after the
/// panic hook's own message) and gives `None`.
fn caught<T>(what: &str, f: impl FnOnce() -> T) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(value) => Some(value),
        Err(payload) => {
            eprintln!(
                "hclwright lsp: internal error in {what}: {}",
                panic_message(payload.as_ref())
            );
            None
        }
    }
}

/// Answers `request` with `handler`, turning a panic into an
/// `InternalError` response (logged on standard error).
fn answer(request: &Request, handler: impl FnOnce(&Request) -> Response) -> Response {
    match catch_unwind(AssertUnwindSafe(|| handler(request))) {
        Ok(response) => response,
        Err(payload) => {
            let message = panic_message(payload.as_ref());
            eprintln!(
                "hclwright lsp: internal error in {} (request {}): {message}",
                request.method, request.id
            );
            Response::new_err(
                request.id.clone(),
                ErrorCode::InternalError as i32,
                format!("internal error in {}: {message}", request.method),
            )
        }
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".into()
    }
}

/// Updates the state; returns the documents whose diagnostics to publish
/// again: the one that changed and, for a `.tf` file, the other open
/// `.tf` files of its folder (their warnings depend on its declarations).
fn handle_notification(n: Notification, state: &mut State) -> Vec<String> {
    let mut changed = changed_by(n, state);
    if let [uri] = changed.as_slice()
        && uri.ends_with(".tf")
    {
        let folder = workspace::folder_of(uri);
        let mut others: Vec<String> = state
            .docs
            .keys()
            .filter(|other| {
                *other != uri && other.ends_with(".tf") && workspace::folder_of(other) == folder
            })
            .cloned()
            .collect();
        others.sort();
        changed.extend(others);
    }
    changed
}

fn changed_by(n: Notification, state: &mut State) -> Vec<String> {
    match n.method.as_str() {
        "textDocument/didOpen" => {
            let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) else {
                return Vec::new();
            };
            let uri = p.text_document.uri.as_str().to_string();
            state.docs.insert(
                uri.clone(),
                Doc {
                    text: p.text_document.text,
                    version: p.text_document.version,
                    uses: Default::default(),
                },
            );
            vec![uri]
        }
        "textDocument/didChange" => {
            let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else {
                return Vec::new();
            };
            let uri = p.text_document.uri.as_str().to_string();
            let Some(doc) = state.docs.get_mut(&uri) else {
                return Vec::new();
            };
            for change in p.content_changes {
                let changed = text::apply_change(&mut doc.text, change, state.encoding);
                doc.uses.get_mut().changed(changed);
            }
            doc.version = p.text_document.version;
            vec![uri]
        }
        "textDocument/didClose" => {
            if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) {
                let uri = p.text_document.uri.as_str().to_string();
                state.docs.remove(&uri);
                // Cleared: the diagnostics of a closed document are empty.
                return vec![uri];
            }
            Vec::new()
        }
        // Files of the folder changed on disk or were saved: the warnings
        // about undeclared names may change for every open document.
        "workspace/didChangeWatchedFiles" | "textDocument/didSave" => {
            let mut open: Vec<String> = state.docs.keys().cloned().collect();
            open.sort();
            open
        }
        "workspace/didChangeConfiguration" => {
            if let Some(profile) = ProfileSetting::from_settings(&n.params["settings"]) {
                state.profile = profile;
            }
            state.limits = state.limits.updated(&n.params["settings"]);
            Vec::new()
        }
        "workspace/didChangeWorkspaceFolders" => {
            let event = &n.params["event"];
            let paths = |key: &str| -> Vec<PathBuf> {
                event[key]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|f| workspace::file_path(f["uri"].as_str()?))
                    .collect()
            };
            let removed = paths("removed");
            state.roots.retain(|r| !removed.contains(r));
            state.roots.extend(paths("added"));
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// The diagnostics of a document (none when it is closed), and the tree
/// parsed for them, to be freed after they are sent.
fn diagnostics_of(
    uri: &str,
    state: &State,
) -> (Option<PublishDiagnosticsParams>, Option<hclwright::Parse>) {
    let (diagnostics, version, tree) = match state.docs.get(uri) {
        Some(doc) => {
            let lines = Lines::new(&doc.text, state.encoding);
            let (found, tree) = diagnostics::of_document(uri, doc, &state.docs, &lines);
            (found, Some(doc.version), tree)
        }
        None => (Vec::new(), None, None),
    };
    let params = uri.parse::<Uri>().ok().map(|uri| PublishDiagnosticsParams {
        uri,
        diagnostics,
        version,
    });
    (params, tree)
}

fn handle_request(request: &Request, state: &State) -> Response {
    let params = &request.params;
    let id = request.id.clone();
    if request.method == "workspace/symbol" {
        let query = params["query"].as_str().unwrap_or_default();
        let mut cache = state.symbol_cache.borrow_mut();
        let found =
            symbols::workspace(query, &state.roots, &state.docs, &mut cache, state.encoding);
        return Response::new_ok(id, found);
    }
    // Every other request served here is about an open document, most of
    // them about a position in it.
    let Some(uri) = params["textDocument"]["uri"].as_str() else {
        return not_supported(request);
    };
    let Some(doc) = state.docs.get(uri) else {
        return invalid(request, "the document is not open");
    };
    let text = doc.text.as_str();
    let encoding = state.encoding;
    let lines = Lines::new(text, encoding);
    let at = serde_json::from_value::<Position>(params["position"].clone())
        .ok()
        .map(|p| lines.offset(p));
    let edits = |edits: Vec<TextEdit>| -> Vec<lsp_types::TextEdit> {
        edits
            .into_iter()
            .map(|e| lsp_types::TextEdit {
                range: lines.range(e.range),
                new_text: e.new_text,
            })
            .collect()
    };
    let docs = &state.docs;
    if workspace::is_json(uri) {
        return json_request(request, text, &lines);
    }
    match (request.method.as_str(), at) {
        ("textDocument/formatting", _) => {
            let profile = state.profile.profile_for(uri);
            Response::new_ok(id, edits(format::document(text, profile)))
        }
        ("textDocument/rangeFormatting", _) => {
            let Ok(selected) = serde_json::from_value::<Range>(params["range"].clone()) else {
                return invalid(request, "invalid range");
            };
            Response::new_ok(id, edits(format::range(text, lines.text_range(selected))))
        }
        ("textDocument/onTypeFormatting", Some(at)) => {
            let typed = params["ch"].as_str().unwrap_or_default();
            Response::new_ok(id, edits(format::on_type(text, at, typed)))
        }
        ("textDocument/documentSymbol", _) => {
            let parse = hclwright::parse(text);
            let found = parse
                .body()
                .map(|b| symbols::document(&b, &lines))
                .unwrap_or_default();
            Response::new_ok(id, found)
        }
        ("textDocument/foldingRange", _) => {
            let parse = hclwright::parse(text);
            Response::new_ok(id, symbols::folding(&parse.syntax(), &lines))
        }
        ("textDocument/selectionRange", _) => {
            let parse = hclwright::parse(text);
            Response::new_ok(
                id,
                symbols::selection(&parse.syntax(), &offsets(params, &lines), &lines),
            )
        }
        ("textDocument/hover", Some(at)) => {
            let budget = state.limits.budget(Default::default());
            Response::new_ok(id, navigation::hover(uri, text, at, docs, &lines, &budget))
        }
        ("textDocument/definition", Some(at)) => {
            Response::new_ok(id, navigation::definition(uri, text, at, docs, encoding))
        }
        ("textDocument/references", Some(at)) => {
            let include_declaration = params["context"]["includeDeclaration"] == true;
            Response::new_ok(
                id,
                navigation::references(uri, text, at, docs, encoding, include_declaration),
            )
        }
        ("textDocument/completion", Some(at)) => {
            Response::new_ok(id, navigation::completion(uri, text, at, docs, &lines))
        }
        ("textDocument/prepareRename", Some(at)) => {
            let found = navigation::renamable(text, at).map(|(_, name)| lines.range(name));
            Response::new_ok(id, found)
        }
        ("textDocument/rename", Some(at)) => {
            let Some(new_name) = params["newName"].as_str() else {
                return invalid(request, "a new name is required");
            };
            match navigation::rename(uri, text, at, new_name, docs, encoding) {
                Ok(edit) => Response::new_ok(id, edit),
                Err(message) => Response::new_err(id, ErrorCode::RequestFailed as i32, message),
            }
        }
        _ => not_supported(request),
    }
}

/// The positions of a `selectionRange` request as offsets.
fn offsets(params: &serde_json::Value, lines: &Lines) -> Vec<usize> {
    serde_json::from_value::<Vec<Position>>(params["positions"].clone())
        .unwrap_or_default()
        .into_iter()
        .map(|p| lines.offset(p))
        .collect()
}

/// A request on a JSON document: its structure only (symbols, folding,
/// selection); no edits, and nothing for the native-syntax features.
fn json_request(request: &Request, text: &str, lines: &Lines) -> Response {
    let id = request.id.clone();
    let parse = || hclwright::json::parse(text);
    match request.method.as_str() {
        "textDocument/formatting"
        | "textDocument/rangeFormatting"
        | "textDocument/onTypeFormatting" => {
            Response::new_ok(id, Vec::<lsp_types::TextEdit>::new())
        }
        "textDocument/documentSymbol" => {
            Response::new_ok(id, symbols::json(&parse().syntax(), lines))
        }
        "textDocument/foldingRange" => {
            Response::new_ok(id, symbols::folding(&parse().syntax(), lines))
        }
        "textDocument/selectionRange" => {
            let offsets = offsets(&request.params, lines);
            Response::new_ok(id, symbols::selection(&parse().syntax(), &offsets, lines))
        }
        "textDocument/hover"
        | "textDocument/definition"
        | "textDocument/references"
        | "textDocument/completion"
        | "textDocument/prepareRename" => Response::new_ok(id, serde_json::Value::Null),
        "textDocument/rename" => Response::new_err(
            id,
            ErrorCode::RequestFailed as i32,
            "rename is not supported in JSON files".into(),
        ),
        _ => not_supported(request),
    }
}

fn not_supported(request: &Request) -> Response {
    Response::new_err(
        request.id.clone(),
        ErrorCode::MethodNotFound as i32,
        format!("{} is not supported", request.method),
    )
}

fn invalid(request: &Request, message: &str) -> Response {
    Response::new_err(
        request.id.clone(),
        ErrorCode::InvalidParams as i32,
        message.into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str) -> Request {
        Request::new(7.into(), method.into(), serde_json::json!({}))
    }

    #[test]
    fn a_panic_in_a_handler_is_an_internal_error() {
        let response = answer(&request("textDocument/hover"), |_| {
            panic!("index out of bounds")
        });
        assert_eq!(response.id, 7.into());
        let error = response.error.expect("an error response");
        assert_eq!(error.code, ErrorCode::InternalError as i32);
        assert!(
            error.message.contains("textDocument/hover"),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("index out of bounds"),
            "{}",
            error.message
        );
        // A formatted panic message is kept too; a handler that returns
        // is answered as it says.
        let response = answer(&request("x"), |_| panic!("at {}", 3));
        assert!(response.error.unwrap().message.ends_with("at 3"));
        let ok = answer(&request("x"), |r| Response::new_ok(r.id.clone(), 1));
        assert_eq!(ok.result, Some(serde_json::json!(1)));
        assert_eq!(caught("x", || -> u8 { panic!("no") }), None);
        assert_eq!(caught("x", || 5), Some(5));
    }
}
