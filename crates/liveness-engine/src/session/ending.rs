//! How a session ends: closed by the caller (no more frames, never `pass`), or finished by
//! its flow, a limit or a timeout; every layer of the table (`layers::LAYERS`) is scored over
//! what was seen, fused by the rules, and decided by the fitted model where it applies
//! (`fitted::verdict`).

use crate::events::{Guidance, LivenessEvent};
use crate::fusion::{EndReason, VerdictReport, fuse};
use crate::illumination::reading::LightReading;
use crate::layers;

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

    /// What the layers judge: everything the session saw, with the light's `light` reading.
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
        }
    }

    pub(super) fn finish(&mut self, end_reason: EndReason, events: &mut Vec<LivenessEvent>) {
        if self.phase == Phase::Finished {
            return;
        }
        self.phase = Phase::Finished;
        let light = self.light_reading();
        let scores = layers::score_session(&self.evidence(light.as_ref()));
        if let Some(reading) = light.filter(|l| l.finding.evidence() == layers::Evidence::None) {
            // too little to judge: say what would give the check its light, or its room
            let code = match reading.finding {
                crate::LightFinding::NoRoom => Guidance::MoveBack,
                _ => Guidance::MoreScreenLight,
            };
            events.push(LivenessEvent::Guidance { code });
        }
        let lit = light.is_some();
        let rules = fuse(self.mode, scores, end_reason);
        let report = match &self.config.fitted_decision {
            Some(decision) => crate::fitted::verdict::decide(decision, self.mode, lit, rules),
            None => rules,
        };
        self.verdict = Some(report.clone());
        events.push(LivenessEvent::Verdict(report));
    }
}
