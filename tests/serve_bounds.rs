//! `dama serve` under load, what does not depend on timing: the page past `--max-pages`
//! is refused with its reason; every admitted page gets its `state`; with more
//! analysing pages than search slots, every page receives analysis lines; a page that
//! never reads is closed and the others go on; a silent page is closed with a reason;
//! the server's threads do not grow with its pages (read from /proc).
//!
//! The timed figures (memory, threads and response times with 200 pages) are in the
//! load bench, `cargo bench --bench serve_load`.

mod common;

use common::server::{connect, next_any, next_of, send, Server, Ws};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

/// Reads until the server closes: the close frame's code and reason (`None` when the
/// connection ended without one), with the JSON messages before it.
async fn until_closed(ws: &mut Ws) -> (Option<(u16, String)>, Vec<Value>) {
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let m = tokio::time::timeout(left, ws.next())
            .await
            .expect("the server closes in time");
        match m {
            Some(Ok(Message::Text(t))) => seen.push(serde_json::from_str(t.as_str()).unwrap()),
            Some(Ok(Message::Close(frame))) => {
                return (
                    frame.map(|f| (u16::from(f.code), f.reason.to_string())),
                    seen,
                )
            }
            Some(Ok(_)) => {}
            Some(Err(_)) | None => return (None, seen),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_past_the_bound_is_refused_with_its_reason() {
    let s = Server::start_with(&["--max-pages", "3"]);
    let mut pages = Vec::new();
    for _ in 0..3 {
        let mut ws = connect(&s).await;
        next_of(&mut ws, "state").await;
        pages.push(ws);
    }
    // The fourth is told why, in a message and in the close frame.
    let mut extra = connect(&s).await;
    let (close, seen) = until_closed(&mut extra).await;
    let (code, reason) = close.expect("a close frame");
    assert_eq!(code, u16::from(CloseCode::Again), "{reason}");
    assert!(
        reason.starts_with("the server is busy: try again later"),
        "{reason}"
    );
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0]["type"], "busy");
    assert_eq!(seen[0]["message"], reason.as_str());
    // A page that leaves makes room for the next one, at once: the server gives the
    // place back before its close frame (a reload must not be told "busy").
    let mut gone = pages.pop().unwrap();
    gone.close(None).await.unwrap();
    while let Some(Ok(_)) = gone.next().await {}
    let mut next = connect(&s).await;
    let st = next_of(&mut next, "state").await;
    assert_eq!(st["variant"], "english");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_admitted_page_gets_its_state_and_threads_stay_bounded() {
    // With the built-in databases: solved before the server listens, their threads
    // are in the count before any page comes.
    let s = Server::start_with_builtin(&["--searches", "2", "--max-pages", "40"]);
    let idle_threads = s.threads();
    let mut pages = Vec::new();
    for _ in 0..40 {
        pages.push(connect(&s).await);
    }
    for ws in pages.iter_mut() {
        let st = next_of(ws, "state").await;
        assert_eq!(st["variant"], "english");
    }
    // Half of them analyse, each in its own variant and with three lines.
    let variants = ["english", "dameo", "croda", "scandinavian", "boyer-parton"];
    for (i, ws) in pages.iter_mut().enumerate().take(20) {
        let variant = variants[i % variants.len()];
        send(ws, json!({"type": "new", "variant": variant})).await;
        send(ws, json!({"type": "analyze", "on": true, "multipv": 3})).await;
    }
    for ws in pages.iter_mut().take(20) {
        next_of(ws, "info").await;
    }
    // No thread per page: two slots with one search thread each, the slice timer and
    // the server's own; the count is what it was before any page came.
    let busy_threads = s.threads();
    assert_eq!(busy_threads, idle_threads, "threads grew with the pages");
    assert_eq!(s.threads_named("dama-slot-0"), 1);
    assert_eq!(s.threads_named("dama-slot-1"), 1);
    assert_eq!(s.threads_named("dama-slot-2"), 0);
    assert!(busy_threads <= 12, "{busy_threads} threads");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_more_analyses_than_slots_every_page_is_analysed() {
    let s = Server::start_with(&["--searches", "1"]);
    let variants = ["english", "dameo", "croda", "scandinavian"];
    let mut pages = Vec::new();
    for v in variants {
        let mut ws = connect(&s).await;
        next_of(&mut ws, "state").await;
        send(&mut ws, json!({"type": "new", "variant": v})).await;
        next_of(&mut ws, "state").await;
        pages.push(ws);
    }
    for ws in pages.iter_mut() {
        send(ws, json!({"type": "analyze", "on": true})).await;
    }
    // The analyses take turns on the one slot: each page hears of its place in line or
    // starts at once, and every one receives lines of its own position.
    let mut queued = 0;
    for (ws, v) in pages.iter_mut().zip(variants) {
        let info = loop {
            let m = next_any(ws).await;
            if m["type"] == "queued" {
                assert_eq!(m["slots"], 1);
                queued += 1;
            }
            if m["type"] == "info" {
                break m;
            }
        };
        assert_eq!(info["purpose"], "analysis", "{v}: {info}");
        assert!(!info["pv"].as_array().unwrap().is_empty(), "{v}: {info}");
    }
    assert_eq!(queued, 3, "three of four pages wait for the one slot");
    // And each comes back for more: a second line, deeper, on every page.
    for (ws, v) in pages.iter_mut().zip(variants) {
        let first = next_of(ws, "info").await;
        let later = next_of(ws, "info").await;
        assert!(later["depth"].as_u64() >= first["depth"].as_u64(), "{v}");
    }
}

/// A dameo position with ten white kings: 162 legal moves, so that its `state` is
/// large (about 30 kB) and a page that does not read fills its queue soon.
const MANY_MOVES: &str = "W:WKa1,Kc3,Ke5,Kg7,Kb6,Kf2,Kd8,Kh4,Ka4,Kc6:Bh8,a8,b8";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_never_reads_is_closed_and_the_others_go_on() {
    let s = Server::start();
    // A client with a tiny receive window that never reads.
    let addr = s.url.trim_start_matches("http://").to_string();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(addr.parse().unwrap()).await.unwrap();
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
    let (mut deaf, _) = tokio_tungstenite::client_async(s.ws_url(), stream)
        .await
        .expect("handshake");
    send(
        &mut deaf,
        json!({"type": "new", "variant": "dameo", "fen": MANY_MOVES}),
    )
    .await;
    send(
        &mut deaf,
        json!({"type": "analyze", "on": true, "multipv": 8}),
    )
    .await;
    // States as fast as the rate allows, none read; the server closes the page when its
    // queue is full (the send fails) or the sends go on into the void.
    let started = Instant::now();
    let deadline = started + Duration::from_secs(60);
    let mut closed = false;
    let mut sent = 0;
    while Instant::now() < deadline {
        if deaf
            .send(Message::Text(json!({"type": "state"}).to_string().into()))
            .await
            .is_err()
        {
            closed = true;
            break;
        }
        sent += 1;
        tokio::time::sleep(Duration::from_millis(45)).await;
    }
    eprintln!(
        "the page that never reads: {sent} states asked for, send failed: {closed}, after {:.1} s",
        started.elapsed().as_secs_f64()
    );
    if !closed {
        // The sends may all have landed in buffers: reading what is there shows that the
        // server has gone (until_closed fails when it has not).
        let (_, seen) = until_closed(&mut deaf).await;
        assert!(!seen.is_empty());
    }
    // Another page is served as usual.
    let mut other = connect(&s).await;
    next_of(&mut other, "state").await;
    send(&mut other, json!({"type": "analyze", "on": true})).await;
    next_of(&mut other, "info").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_page_is_closed_with_a_reason() {
    let s = Server::start_with(&["--idle-timeout", "1"]);
    let mut ws = connect(&s).await;
    let started = Instant::now();
    let (close, seen) = until_closed(&mut ws).await;
    assert!(started.elapsed() >= Duration::from_millis(900));
    let (code, reason) = close.expect("a close frame");
    assert_eq!(code, 1000);
    assert_eq!(
        reason,
        "closed after 1 second without a message: reload the page to go on"
    );
    assert_eq!(seen[0]["type"], "state");
    assert_eq!(seen.last().unwrap()["message"], reason.as_str());
}
