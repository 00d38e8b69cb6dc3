//! How a session ends: closed by the caller (no more frames, never `pass`), or finished by
//! its flow, a limit or a timeout; every layer of the table (`layers::LAYERS`) is scored over
//! what was seen, fused by the rules, and decided by the fitted model where it applies
//! (`fitted::verdict`).

use domain::Verdict;

use crate::config::SessionMode;
use crate::events::{Guidance, LivenessEvent};
use crate::fusion::{EndReason, VerdictReport, fuse};
use crate::illumination::reading::LightReading;
use crate::layers::{self, ModelFaces};

use super::flow::MIN_MODEL_FACES;
use super::{LivenessSession, Phase};

impl LivenessSession {
    /// Ends the session when the caller has no more frames (socket closed, recording over):
    /// the verdict rests on what was seen and cannot be `pass`. Nothing when already ended.
    pub fn close(&mut self) -> Vec<LivenessEvent> {
        let mut events = Vec::new();
        self.finish(EndReason::StreamEnded, &mut events);
        events
    }

    /// The verdict, closing the session first if it has not ended yet.
    pub fn conclude(&mut self) -> VerdictReport {
        self.close();
        let report = self.verdict.get_or_insert_with(|| {
            // `finish` always stores a verdict; this only keeps the method free of a panic
            fuse(self.mode, Vec::new(), EndReason::StreamEnded)
        });
        report.clone()
    }

    /// What the layers judge: everything the session saw, with the light's `light` reading,
    /// the anti-spoof layer over the unlit faces.
    pub(super) fn evidence<'a>(
        &'a self,
        light: Option<&'a LightReading>,
    ) -> layers::SessionEvidence<'a> {
        layers::SessionEvidence {
            mode: self.mode,
            frames: &self.frames,
            carried_box_judgements: &self.carried_box_judgements,
            timing: &self.intake.timing,
            challenges: &self.trackers,
            light,
            model_faces: ModelFaces::Unlit,
        }
    }

    pub(super) fn finish(&mut self, end_reason: EndReason, events: &mut Vec<LivenessEvent>) {
        if self.phase == Phase::Finished {
            return;
        }
        let light = self.light_reading();
        if let Some(reading) = light.filter(|l| l.finding.evidence() == layers::Evidence::None) {
            // too little to judge: say what would give the check its light, or its room
            let code = match reading.finding {
                crate::LightFinding::NoRoom => Guidance::MoveBack,
                _ => Guidance::MoreScreenLight,
            };
            events.push(LivenessEvent::Guidance { code });
        }
        let report = self.judge(light.as_ref(), ModelFaces::Unlit, end_reason);
        self.give(report, events);
    }

    /// The verdict over everything seen so far, the anti-spoof layer over `model_faces`.
    fn judge(
        &self,
        light: Option<&LightReading>,
        model_faces: ModelFaces,
        end_reason: EndReason,
    ) -> VerdictReport {
        let evidence = layers::SessionEvidence {
            model_faces,
            ..self.evidence(light)
        };
        let rules = fuse(self.mode, layers::score_session(&evidence), end_reason);
        match &self.config.fitted_decision {
            Some(decision) => {
                crate::fitted::verdict::decide(decision, self.mode, light.is_some(), rules)
            }
            None => rules,
        }
    }

    /// Ends the session with `report`.
    fn give(&mut self, report: VerdictReport, events: &mut Vec<LivenessEvent>) {
        self.phase = Phase::Finished;
        self.verdict = Some(report.clone());
        events.push(LivenessEvent::Verdict(report));
    }

    /// The one look at a lit passive session, due the first time the colours' window is over
    /// and the hold has its time and faces: the verdict over what was seen so far, the
    /// anti-spoof layer over the faces the colours lit (every analysed frame's, or with
    /// `LivenessConfig::look_when_behind` about one a colour step in a carried face box on a
    /// server that fell behind: `key_frames`; at least [`MIN_MODEL_FACES`] of them by then, or
    /// the session waits as before). The look is kept ([`Self::early_look`]); where it passes at
    /// the fitted decision's early pass point (`FittedDecision::early_pass_at`) with no layer
    /// raising attack evidence ([`VerdictReport::raised_no_attack`]: a session some layer
    /// disputes is not sure, and the verdict after the wait weighs more evidence) and the
    /// configuration allows it, the session ends with it, before the camera's settling and the
    /// unlit faces (about 2 s; issue 67). Due once, taken or not, so the early pass point is
    /// set for one look at one moment (`liveness_rig::eval::look`). True when the session ended.
    pub(super) fn look_at_colours_end(&mut self, t: u64, events: &mut Vec<LivenessEvent>) -> bool {
        if !matches!(self.look, Look::NotDue)
            || !self.light_check_shown()
            || self.mode != SessionMode::Passive
        {
            return false;
        }
        let judged = self.model_times_under_colours().count();
        if judged < MIN_MODEL_FACES {
            self.look = Look::TooFewFaces { at_ms: t, judged };
            return false;
        }
        let light = self.light_reading();
        let look = self.judge(
            light.as_ref(),
            ModelFaces::UnderColours,
            EndReason::Completed,
        );
        let early_pass_at = self
            .config
            .fitted_decision
            .as_ref()
            .and_then(|d| d.early_pass_at);
        let passes = look.verdict == Verdict::Pass
            && look.raised_no_attack()
            && look
                .fitted_live_probability
                .zip(early_pass_at)
                .is_some_and(|(p, at)| f64::from(p) >= at);
        let ended = passes && self.config.verdict_at_colours_end;
        self.look = Look::Taken {
            report: look.clone(),
            at_ms: t,
            judged,
            ended,
        };
        if ended {
            self.give(look, events);
        }
        ended
    }

    /// The verdict the session's one look at the colours' end gave: a lit passive session
    /// looks once when the colours' window is over and the hold has its time and faces, the
    /// anti-spoof layer over the faces the colours lit, and ends with the look where the
    /// fitted decision's early pass point allows (`FittedDecision::early_pass_at`; issue 67).
    /// Whether or not it ended with it; `None` when it took none (not a lit passive session,
    /// fewer than [`crate::MIN_MODEL_FACES`] faces judged under the colours, or not yet).
    pub fn early_look(&self) -> Option<&VerdictReport> {
        match &self.look {
            Look::Taken { report, .. } => Some(report),
            Look::NotDue | Look::TooFewFaces { .. } => None,
        }
    }

    /// What became of the session's one look at the colours' end, for the server's log of
    /// each verdict: whether a session under load still ended at its look, and if not why.
    pub fn look_outcome(&self) -> LookOutcome {
        match &self.look {
            Look::NotDue => LookOutcome::NotDue,
            Look::TooFewFaces { at_ms, judged } => LookOutcome::TooFewFaces {
                at_ms: *at_ms,
                judged: *judged,
            },
            Look::Taken {
                report,
                at_ms,
                judged,
                ended,
            } => LookOutcome::Taken {
                at_ms: *at_ms,
                judged: *judged,
                verdict: report.verdict,
                live_probability: report.fitted_live_probability,
                ended: *ended,
            },
        }
    }
}

/// The one look at a lit passive session's colours' end, as the session keeps it.
#[derive(Debug, Clone)]
pub(super) enum Look {
    /// Its moment has not come (or never comes: not a lit passive session).
    NotDue,
    /// Its moment came (at the capture time `at_ms`) with fewer than [`MIN_MODEL_FACES`] faces
    /// judged under the colours.
    TooFewFaces { at_ms: u64, judged: usize },
    /// Taken at the capture time `at_ms` over `judged` faces under the colours; `ended` when
    /// the session ended with it.
    Taken {
        report: VerdictReport,
        at_ms: u64,
        judged: usize,
        ended: bool,
    },
}

/// What became of a session's one look at the colours' end ([`LivenessSession::look_outcome`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LookOutcome {
    /// Not taken: its moment has not come, or never comes (not a lit passive session).
    NotDue,
    /// Its moment came, at the capture time `at_ms` (from the stream's `ready`), with too few
    /// faces judged under the colours (a server behind the session with
    /// `LivenessConfig::look_when_behind` off, or a worker that came back late).
    TooFewFaces { at_ms: u64, judged: usize },
    /// Taken at the capture time `at_ms` over `judged` faces: its verdict and fitted
    /// probability of a live person, and whether the session ended with it (a pass at the
    /// early pass point, where allowed).
    Taken {
        at_ms: u64,
        judged: usize,
        verdict: Verdict,
        live_probability: Option<f32>,
        ended: bool,
    },
}
