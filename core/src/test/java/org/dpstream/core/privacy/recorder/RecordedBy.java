package org.dpstream.core.privacy.recorder;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a sensitivity recorder test with the mechanisms it records: every {@code PrivacyCalibration} implementation
 * and every other mechanism entry point ({@link MechanismRegistry}) must be named by one, or {@code
 * RecorderRegistryTest} fails naming it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RecordedBy {

  /** The mechanism classes this test records (a calibration, or the entry point that adds the noise). */
  Class<?>[] value();

  /** Binary names of recorded classes a test cannot name by a literal (private nested ones, e.g. {@code A$B}). */
  String[] privateClasses() default {};
}
