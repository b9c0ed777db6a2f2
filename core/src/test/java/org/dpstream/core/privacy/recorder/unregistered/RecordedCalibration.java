package org.dpstream.core.privacy.recorder.unregistered;

/** A calibration a recorder names ({@link RecordedCalibrationRecorder}): the registry's check must accept it. */
final class RecordedCalibration extends SyntheticCalibration {}
