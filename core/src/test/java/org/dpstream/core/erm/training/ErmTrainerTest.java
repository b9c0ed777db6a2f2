package org.dpstream.core.erm.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ErmTrainerTest {

  @Test
  void dpsgdStatesItsGuaranteeForReplaceOneByGroupPrivacy() {
    org.dpstream.core.privacy.accounting.PrivacyBudget addRemove =
        ErmTrainer.addRemoveBudget(new org.dpstream.core.privacy.accounting.PrivacyBudget(1, 1e-5));
    assertEquals(0.5, addRemove.epsilon(), 1e-15);
    assertTrue(addRemove.epsilon() < 0.5);
    assertEquals(1e-5 / (1 + Math.exp(0.5)), addRemove.delta(), 1e-14);
    assertTrue(addRemove.delta() < 1e-5 / (1 + Math.exp(0.5)));
    org.dpstream.core.privacy.accounting.PrivacyBudget back = ErmTrainer.replaceOneBudget(addRemove);
    assertTrue(back.epsilon() <= 1 && back.delta() <= 1e-5, back.toString());
    assertEquals(1, back.epsilon(), 1e-15);
    assertEquals(1e-5, back.delta(), 1e-13);
    org.dpstream.core.privacy.accounting.PrivacyBudget huge =
        ErmTrainer.addRemoveBudget(new org.dpstream.core.privacy.accounting.PrivacyBudget(1e6, 1e-5));
    assertEquals(500, huge.epsilon());
    assertTrue(huge.delta() > 0 && ErmTrainer.replaceOneBudget(huge).delta() <= 1e-5, huge.toString());
  }
}
