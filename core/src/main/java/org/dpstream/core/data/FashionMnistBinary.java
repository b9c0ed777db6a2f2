package org.dpstream.core.data;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A binary task on Fashion-MNIST (Debian's {@value FashionMnist#DEBIAN_PACKAGE}, IDX files read by
 * {@link FashionMnist}): the images of two classes, label 0 for the first and 1 for the second, each pixel
 * divided by 255.
 *
 * <p><b>Public feature bounds from the format</b>: a pixel is an unsigned byte, so every feature lies in
 * [0, 1] whatever the images are: {@link #FEATURE_BOUND} = 1 for every coordinate. Nothing is measured on
 * the data. (The pixels' actual scales differ a lot, border pixels being nearly always 0; the public
 * bounds cannot know that without looking at the data.)
 */
public final class FashionMnistBinary {

  /** |x_j| &lt;= 1 for every pixel / 255. */
  public static final double FEATURE_BOUND = 1.0;

  /**
   * Parses a pair of distinct classes such as {@code "7,9"}.
   *
   * @throws IllegalArgumentException naming what was expected
   */
  public static int[] parseClassPair(String text) {
    String[] parts = text.split(",");
    try {
      if (parts.length == 2) {
        int a = Integer.parseInt(parts[0].strip());
        int b = Integer.parseInt(parts[1].strip());
        if (a != b && a >= 0 && b >= 0 && a <= 9 && b <= 9) {
          return new int[] {a, b};
        }
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("two distinct classes in 0..9, e.g. 7,9; got '" + text + "'");
  }

  /** The class names of Fashion-MNIST, by label. */
  public static final String[] CLASS_NAMES = {
    "T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"
  };

  private FashionMnistBinary() {}

  /**
   * The images of classes {@code negative} (label 0) and {@code positive} (label 1) of one split, in file
   * order.
   *
   * @throws MissingDatasetException if the files are missing (the message says how
   *     to install them)
   */
  public static LabelledData load(Path directory, FashionMnist.Split split, int negative, int positive)
      throws IOException {
    if (negative == positive || negative < 0 || positive < 0 || negative > 9 || positive > 9) {
      throw new IllegalArgumentException("need two distinct classes in 0..9, got " + negative + " and " + positive);
    }
    LabelledImages images = FashionMnist.load(directory, split);
    int pixels = images.rows() * images.columns();
    int count = 0;
    for (int i = 0; i < images.count(); i++) {
      int label = images.label(i);
      if (label == negative || label == positive) {
        count++;
      }
    }
    if (count == 0) {
      throw new IOException("no image of class " + negative + " or " + positive + " in " + directory);
    }
    double[][] x = new double[count][pixels];
    double[] y = new double[count];
    int k = 0;
    for (int i = 0; i < images.count(); i++) {
      int label = images.label(i);
      if (label != negative && label != positive) {
        continue;
      }
      for (int r = 0; r < images.rows(); r++) {
        for (int c = 0; c < images.columns(); c++) {
          x[k][r * images.columns() + c] = images.pixel(i, r, c) / 255.0;
        }
      }
      y[k++] = label == positive ? 1 : 0;
    }
    return LabelledData.of(x, y);
  }

  /** "Sneaker (7) vs Ankle boot (9)". */
  public static String describe(int negative, int positive) {
    return CLASS_NAMES[negative] + " (" + negative + ") vs " + CLASS_NAMES[positive] + " (" + positive + ")";
  }
}
