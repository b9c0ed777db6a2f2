package org.dpstream.core.privacy.recorder.unregistered;

/** A calibration no recorder names: the registry's check must find it (RecorderRegistryTest). */
final class UnrecordedCalibration extends SyntheticCalibration {}
