//! Requests that evaluate (hover, completion) answered on worker threads,
//! so that the main loop keeps answering everything else while they work.
//!
//! Each job gets a snapshot of what it reads (texts are cloned, trees are
//! built on the worker) and an evaluation [`Budget`]: the limits of the
//! settings ([`Limits`]) and a cancellation flag. The main loop sets the
//! flag when the client cancels the request (`$/cancelRequest`, answered
//! at once with `RequestCancelled`) or when the job's time is up; a job
//! still running a grace period after its time is answered by the main
//! loop with its fallback (the worker's late answer is dropped).
//!
//! At most [`MAX_RUNNING`] jobs run at once; the others wait in order.

use std::collections::VecDeque;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use hclwright::eval::{Budget, Cancel};
use lsp_server::{ErrorCode, Message, Request, RequestId, Response};

/// What the main loop waits for: a message from the client, or a
/// worker's answer.
pub enum Event {
    /// A message read from the client.
    Message(Message),
    /// The client's input ended.
    Closed,
    /// A worker's answer to a request.
    Done(RequestId, Response),
}

/// The most jobs running at once.
pub const MAX_RUNNING: usize = 4;

/// How long past its time a job may still answer before the main loop
/// answers for it.
const GRACE: Duration = Duration::from_secs(2);

/// The stack of a worker (reserved, used as needed): the syntax walks
/// that are not guarded by `stacker` need room on deeply nested files.
const WORKER_STACK: usize = 1 << 30;

/// The evaluation limits of hover and completion, from the settings
/// `{"hclwright": {"evaluation": {"timeoutMs": 1000, "maxSteps":
/// 1000000, "maxStringBytes": 67108864}}}` (the defaults shown; the
/// `hclwright` level may be left out).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// The time a request may take to evaluate.
    pub timeout: Duration,
    /// [`Budget::steps`] of each expression.
    pub steps: u64,
    /// [`Budget::max_string_len`].
    pub max_string_len: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        let budget = Budget::default();
        Limits {
            timeout: Duration::from_millis(1000),
            steps: budget.steps,
            max_string_len: budget.max_string_len,
        }
    }
}

impl Limits {
    /// The limits with those that `settings` gives replaced.
    pub fn updated(mut self, settings: &serde_json::Value) -> Limits {
        let section = settings.get("hclwright").unwrap_or(settings);
        let evaluation = &section["evaluation"];
        if let Some(ms) = evaluation["timeoutMs"].as_u64() {
            self.timeout = Duration::from_millis(ms);
        }
        if let Some(steps) = evaluation["maxSteps"].as_u64() {
            self.steps = steps;
        }
        if let Some(bytes) = evaluation["maxStringBytes"].as_u64() {
            self.max_string_len = usize::try_from(bytes).unwrap_or(usize::MAX);
        }
        self
    }

    /// The budget of one job: these limits, each expression's time the
    /// whole job's, and `cancel`.
    pub fn budget(&self, cancel: Cancel) -> Budget {
        Budget {
            steps: self.steps,
            time: Some(self.timeout),
            max_string_len: self.max_string_len,
            cancel: Some(cancel),
        }
    }
}

/// The work of a job: given its budget, the answer.
pub type Task = Box<dyn FnOnce(&Budget) -> Response + Send>;

struct Queued {
    request: Request,
    task: Task,
    fallback: Response,
}

struct Running {
    id: RequestId,
    cancel: Cancel,
    deadline: Instant,
    /// Answered already (cancelled): the worker's answer is dropped.
    answered: bool,
    fallback: Option<Response>,
}

/// The jobs waiting and running.
pub struct Pool {
    events: Sender<Event>,
    queued: VecDeque<Queued>,
    running: Vec<Running>,
}

impl Pool {
    /// A pool whose workers send their answers to `events`.
    pub fn new(events: Sender<Event>) -> Pool {
        Pool {
            events,
            queued: VecDeque::new(),
            running: Vec::new(),
        }
    }

    /// Adds a job: `task` answers `request`; `fallback` is the answer
    /// given when the job is still running a grace period after its time.
    /// Returns the answers to send now (a worker that cannot start).
    pub fn submit(
        &mut self,
        request: Request,
        task: Task,
        fallback: Response,
        limits: &Limits,
    ) -> Vec<Response> {
        self.queued.push_back(Queued {
            request,
            task,
            fallback,
        });
        let mut out = Vec::new();
        self.start_waiting(limits, &mut out);
        out
    }

    /// Starts waiting jobs while fewer than [`MAX_RUNNING`] run.
    fn start_waiting(&mut self, limits: &Limits, out: &mut Vec<Response>) {
        while self.running.len() < MAX_RUNNING {
            let Some(job) = self.queued.pop_front() else {
                return;
            };
            let id = job.request.id.clone();
            let cancel = Cancel::new();
            let budget = limits.budget(cancel.clone());
            let events = self.events.clone();
            let Queued {
                request,
                task,
                fallback,
            } = job;
            let spawned = std::thread::Builder::new()
                .name("hclwright-lsp-worker".into())
                .stack_size(WORKER_STACK)
                .spawn(move || {
                    let response = super::answer(&request, |_| task(&budget));
                    let _ = events.send(Event::Done(request.id.clone(), response));
                });
            if let Err(e) = spawned {
                let failed = Response::new_err(
                    id,
                    ErrorCode::InternalError as i32,
                    format!("cannot start a worker: {e}"),
                );
                out.push(failed);
                continue;
            }
            self.running.push(Running {
                id,
                cancel,
                deadline: Instant::now() + limits.timeout,
                answered: false,
                fallback: Some(fallback),
            });
        }
    }

    /// A worker's answer: the answers to send (it, unless the request was
    /// answered already); starts the next waiting job.
    pub fn finished(
        &mut self,
        id: &RequestId,
        response: Response,
        limits: &Limits,
    ) -> Vec<Response> {
        let mut out = Vec::new();
        if let Some(i) = self.running.iter().position(|r| &r.id == id) {
            let job = self.running.remove(i);
            if !job.answered {
                out.push(response);
            }
        }
        self.start_waiting(limits, &mut out);
        out
    }

    /// `$/cancelRequest`: the `RequestCancelled` answer when the request
    /// is waiting or running and not answered yet (its evaluation is
    /// stopped), else `None`.
    pub fn cancel(&mut self, id: &RequestId) -> Option<Response> {
        let cancelled = || {
            Response::new_err(
                id.clone(),
                ErrorCode::RequestCanceled as i32,
                "the request was cancelled".into(),
            )
        };
        if let Some(i) = self.queued.iter().position(|q| &q.request.id == id) {
            self.queued.remove(i);
            return Some(cancelled());
        }
        let job = self.running.iter_mut().find(|r| &r.id == id)?;
        job.cancel.cancel();
        if job.answered {
            return None;
        }
        job.answered = true;
        Some(cancelled())
    }

    /// Stops every job (at shutdown) and answers those not answered yet
    /// with `RequestCancelled`.
    pub fn cancel_all(&mut self) -> Vec<Response> {
        let ids: Vec<RequestId> = self
            .queued
            .iter()
            .map(|q| q.request.id.clone())
            .chain(self.running.iter().map(|r| r.id.clone()))
            .collect();
        ids.iter().filter_map(|id| self.cancel(id)).collect()
    }

    /// How long the main loop may wait before [`Pool::tick`] has work.
    pub fn wait(&self) -> Option<Duration> {
        let now = Instant::now();
        self.running
            .iter()
            .map(|r| {
                let at = if r.cancel.is_cancelled() {
                    r.deadline + GRACE
                } else {
                    r.deadline
                };
                at.saturating_duration_since(now)
            })
            .min()
    }

    /// Stops the jobs whose time is up, and answers with their fallback
    /// those still running a grace period later (their slot is freed;
    /// their thread ends when the evaluation notices the flag).
    pub fn tick(&mut self, limits: &Limits) -> Vec<Response> {
        let now = Instant::now();
        let mut answers = Vec::new();
        let mut i = 0;
        while i < self.running.len() {
            let job = &mut self.running[i];
            if now >= job.deadline {
                job.cancel.cancel();
            }
            if now >= job.deadline + GRACE {
                let job = self.running.remove(i);
                if !job.answered
                    && let Some(fallback) = job.fallback
                {
                    answers.push(fallback);
                }
                continue;
            }
            i += 1;
        }
        self.start_waiting(limits, &mut answers);
        answers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(id: i32) -> Request {
        Request::new(
            id.into(),
            "textDocument/hover".into(),
            serde_json::json!({}),
        )
    }

    /// A task that runs until its budget's flag is set.
    fn until_cancelled(id: i32) -> Task {
        Box::new(move |budget: &Budget| {
            let cancel = budget.cancel.clone().expect("a flag");
            while !cancel.is_cancelled() {
                std::thread::sleep(Duration::from_millis(5));
            }
            Response::new_ok(id.into(), "stopped")
        })
    }

    fn next_done(inbox: &std::sync::mpsc::Receiver<Event>) -> (RequestId, Response) {
        match inbox.recv_timeout(Duration::from_secs(30)) {
            Ok(Event::Done(id, response)) => (id, response),
            _ => panic!("no answer from the worker"),
        }
    }

    #[test]
    fn jobs_wait_for_a_slot_and_cancelled_ones_answer_once() {
        let (events, inbox) = std::sync::mpsc::channel();
        let mut pool = Pool::new(events);
        let limits = Limits {
            timeout: Duration::from_secs(600),
            ..Limits::default()
        };
        let fallback = |id: i32| Response::new_ok(id.into(), "late");
        for id in 0..=MAX_RUNNING as i32 {
            let started = pool.submit(request(id), until_cancelled(id), fallback(id), &limits);
            assert!(started.is_empty());
        }
        assert_eq!((pool.running.len(), pool.queued.len()), (MAX_RUNNING, 1));
        // The waiting one is cancelled without running.
        let last = RequestId::from(MAX_RUNNING as i32);
        let answer = pool.cancel(&last).expect("cancelled");
        assert_eq!(
            answer.error.unwrap().code,
            ErrorCode::RequestCanceled as i32
        );
        assert!(pool.queued.is_empty());
        // A running one: answered at once, its flag stops it, and its own
        // answer is dropped.
        let first = RequestId::from(0);
        assert!(pool.cancel(&first).is_some());
        assert!(pool.cancel(&first).is_none(), "answered twice");
        let (id, response) = next_done(&inbox);
        assert_eq!(id, first);
        assert!(pool.finished(&id, response, &limits).is_empty());
        // At shutdown the others are cancelled and answered.
        assert_eq!(pool.cancel_all().len(), MAX_RUNNING - 1);
        for _ in 1..MAX_RUNNING {
            let (id, response) = next_done(&inbox);
            assert!(pool.finished(&id, response, &limits).is_empty());
        }
        assert!(pool.running.is_empty() && pool.wait().is_none());
    }

    #[test]
    fn a_job_past_its_time_is_stopped_then_answered_by_its_fallback() {
        let (events, inbox) = std::sync::mpsc::channel();
        let mut pool = Pool::new(events);
        let limits = Limits {
            timeout: Duration::ZERO,
            ..Limits::default()
        };
        // This one ignores its flag for a while: the fallback answers.
        let stubborn: Task = Box::new(|_| {
            std::thread::sleep(GRACE + Duration::from_secs(1));
            Response::new_ok(1.into(), "too late")
        });
        pool.submit(
            request(1),
            stubborn,
            Response::new_ok(1.into(), "late"),
            &limits,
        );
        let mut answers = pool.tick(&limits);
        while answers.is_empty() {
            std::thread::sleep(pool.wait().expect("still running"));
            answers = pool.tick(&limits);
        }
        assert_eq!(answers.len(), 1);
        assert_eq!(answers[0].result, Some(serde_json::json!("late")));
        // Its own answer, when it comes, is dropped.
        let (id, response) = next_done(&inbox);
        assert!(pool.finished(&id, response, &limits).is_empty());
        // One that notices the flag answers itself.
        pool.submit(
            request(2),
            until_cancelled(2),
            Response::new_ok(2.into(), "late"),
            &limits,
        );
        assert!(pool.tick(&limits).is_empty());
        let (id, response) = next_done(&inbox);
        let sent = pool.finished(&id, response, &limits);
        assert_eq!(sent[0].result, Some(serde_json::json!("stopped")));
    }

    #[test]
    fn limits_from_settings() {
        let limits = Limits::default();
        assert_eq!(limits.timeout, Duration::from_secs(1));
        assert_eq!(limits.steps, Budget::default().steps);
        let nested = serde_json::json!({"hclwright": {"evaluation": {"timeoutMs": 200}}});
        let flat = serde_json::json!({"evaluation": {"maxSteps": 5, "maxStringBytes": 9}});
        let changed = limits.updated(&nested);
        assert_eq!(changed.timeout, Duration::from_millis(200));
        assert_eq!(changed.steps, limits.steps);
        let changed = changed.updated(&flat);
        assert_eq!(changed.timeout, Duration::from_millis(200));
        assert_eq!((changed.steps, changed.max_string_len), (5, 9));
        assert_eq!(limits.updated(&serde_json::json!(null)), limits);
        let budget = changed.budget(Cancel::new());
        assert_eq!(budget.time, Some(Duration::from_millis(200)));
        assert!(budget.cancel.is_some());
    }
}
