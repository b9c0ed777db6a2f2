package org.dpstream.service.release;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.schemas.ModelRelease;
import org.junit.jupiter.api.Test;

class ModelReleasesTest {

  @Test
  void aReleaseCarriesItsParametersAndEveryFieldOfItsLedger() {
    PrivacyLedger ledger = PrivacyLedger.of(new PrivacyBudget(2, 1e-5), "zcdp-cks20", 1000, 3, 0.75, 4e-6);
    ModelRelease release = ModelReleases.of("m1", 17, 3, new double[] {0.5, -1.25}, "dp-tofw/zcdp", 1.5, ledger);
    assertEquals("m1", release.getModelId().toString());
    assertEquals(17, release.getStep());
    assertEquals(3, release.getEpoch());
    assertEquals(List.of(0.5, -1.25), release.getParameters());
    assertEquals("dp-tofw/zcdp", release.getAlgorithm().toString());
    assertEquals(1.5, release.getP());
    org.dpstream.schemas.PrivacyLedger wire = release.getLedger();
    assertEquals(2, wire.getEpsilon());
    assertEquals(1e-5, wire.getDelta());
    assertEquals("zcdp-cks20", wire.getAccountant().toString());
    assertEquals(1000, wire.getHorizon());
    assertEquals(3, wire.getEpoch());
    assertEquals(0.75, wire.getEpsilonSpent());
    assertEquals(4e-6, wire.getDeltaSpent());
    assertEquals(null, wire.getGeneration(), "generation 0 states none of the generation fields");
    assertEquals(release, ModelReleases.inGeneration(release, NoiseGeneration.FIRST));
  }

  @Test
  void aLaterGenerationsLedgerStatesItAndWhatTheEarlierOnesSpent() {
    PrivacyLedger ledger = PrivacyLedger.of(new PrivacyBudget(2, 1e-5), "zcdp-cks20", 1000, 0, 0.5, 1e-6);
    ModelRelease release = ModelReleases.inGeneration(
        ModelReleases.of("m1", 1, 0, new double[] {0}, "dp-tofw/zcdp", 1.5, ledger), new NoiseGeneration(2, 1.75, 3e-6));
    org.dpstream.schemas.PrivacyLedger wire = release.getLedger();
    assertEquals(2, wire.getGeneration());
    assertEquals(1.75, wire.getEarlierGenerationsEpsilonSpent());
    assertEquals(3e-6, wire.getEarlierGenerationsDeltaSpent());
    assertEquals(0.5, wire.getEpsilonSpent(), "this generation's own spend is unchanged");
  }
}
