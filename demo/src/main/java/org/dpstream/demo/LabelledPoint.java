package org.dpstream.demo;

/** One synthetic example: features x and label y. */
record LabelledPoint(double[] features, double label) {}
