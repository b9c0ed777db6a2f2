package org.dpstream.bench.common;

import java.awt.Color;
import java.awt.Font;
import org.knowm.xchart.style.Styler;

/** The look the bench's PNGs share: white background, sans-serif title and legend, the legend below the plot. */
public final class ChartStyle {

  private ChartStyle() {}

  public static void apply(Styler styler, int titleFontSize) {
    styler.setChartBackgroundColor(Color.WHITE);
    styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, titleFontSize));
    styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
    styler.setLegendPosition(Styler.LegendPosition.OutsideS);
  }
}
