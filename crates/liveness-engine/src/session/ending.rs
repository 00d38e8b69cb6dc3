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
    /// the fitted decision's early pass point (`FittedDecision::early_pass_at`) and the
    /// configuration allows it, the session ends with it, before the camera's settling and the
    /// unlit faces (about 2 s; issue 67). Due once, taken or not, so the early pass point is
    /// set for one look at one moment (`liveness_rig::eval::look`). True when the session ended.
    pub(super) fn look_at_colours_end(&mut self, events: &mut Vec<LivenessEvent>) -> bool {
        if self.early_look_due_passed
            || !self.light_check_shown()
            || self.mode != SessionMode::Passive
        {
            return false;
        }
        self.early_look_due_passed = true;
        if self.model_times_under_colours().count() < MIN_MODEL_FACES {
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
            && look
                .fitted_live_probability
                .zip(early_pass_at)
                .is_some_and(|(p, at)| f64::from(p) >= at);
        self.early_look = Some(look.clone());
        if passes && self.config.verdict_at_colours_end {
            self.give(look, events);
            return true;
        }
        false
    }

    /// The verdict the session's one look at the colours' end gave: a lit passive session
    /// looks once when the colours' window is over and the hold has its time and faces, the
    /// anti-spoof layer over the faces the colours lit, and ends with the look where the
    /// fitted decision's early pass point allows (`FittedDecision::early_pass_at`; issue 67).
    /// Whether or not it ended with it; `None` when it took none (not a lit passive session,
    /// fewer than [`crate::MIN_MODEL_FACES`] faces judged under the colours, or not yet).
    pub fn early_look(&self) -> Option<&VerdictReport> {
        self.early_look.as_ref()
    }
}
