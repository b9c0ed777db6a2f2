package org.dpstream.core.privacy.recorder.unregistered;

import org.dpstream.core.privacy.recorder.RecordedBy;

/** Stands for a recorder test of {@link RecordedCalibration}, for the registry's own test. */
@RecordedBy(RecordedCalibration.class)
final class RecordedCalibrationRecorder {}
