package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * Pins the noise-law digest of one model of each kind of plan: a saved state's header carries its model's law, and a
 * restore refuses a state whose law is not the running build's. A change that moves a digest (a sampler, a
 * calibration, a known answer, a field of the law) therefore stops every saved model of that kind at its next restore:
 * it must be deliberate, stated in the change log with what operators do about it, and the pins below updated in the
 * same commit. The specs are fixed (d = 3, radius 2, eps = 1 unless named otherwise, delta = 1e-5, horizon 64).
 */
class NoiseLawPinTest {

  private static Map<String, byte[]> laws() {
    OnlineTestData data = new OnlineTestData(3, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(1));
    Map<String, byte[]> laws = new LinkedHashMap<>();
    for (AccountantChoice accountant : AccountantChoice.values()) {
      OnlineModelSpec spec = data.spec("pin", 1.5, 2, 1, 64, accountant);
      laws.put("dp-tofw " + accountant, DpTofw.lawOf(spec, PrefixSumPlan.choose(spec)));
    }
    // Adaptive clipping is accounted in zCDP, and discrete noise needs a plan with integer coefficients.
    for (AccountantChoice accountant : new AccountantChoice[] {AccountantChoice.ZCDP, AccountantChoice.BLT}) {
      OnlineModelSpec spec = data.spec("pin", 1.5, 2, 1, 64, accountant);
      OnlineModelSpec adaptive = spec.withIncrementClipping(IncrementClipping.ADAPTIVE);
      laws.put("dp-tofw adaptive " + accountant, DpTofw.lawOf(adaptive, PrefixSumPlan.choose(adaptive)));
      OnlineModelSpec discrete = spec.withNoise(NoiseChoice.DISCRETE);
      laws.put("dp-tofw discrete " + accountant, DpTofw.lawOf(discrete, PrefixSumPlan.choose(discrete)));
      OnlineModelSpec both = adaptive.withNoise(NoiseChoice.DISCRETE);
      laws.put("dp-tofw adaptive discrete " + accountant, DpTofw.lawOf(both, PrefixSumPlan.choose(both)));
    }
    OnlineModelSpec simplex = data.spec("pin", 1, 2, 1, 64, AccountantChoice.ZCDP);
    laws.put("dp-pofw", DpPofw.lawOf(simplex));
    laws.put("dp-pofw discrete", DpPofw.lawOf(simplex.withNoise(NoiseChoice.DISCRETE)));
    // A paper tree with generalized Gaussian noise (Lemma 3.2 via l_q: p = 1.5 at d = 20): its law names q+ and sigma+.
    OnlineTestData wide = new OnlineTestData(20, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(1));
    OnlineModelSpec lq = wide.spec("pin", 1.5, 2, 1, 64, AccountantChoice.PAPER);
    laws.put("dp-tofw PAPER d 20", DpTofw.lawOf(lq, PrefixSumPlan.choose(lq)));
    // Less noise, so that the exact choice's known answers depend on the probe sums it is given.
    OnlineModelSpec sharper = data.spec("pin", 1, 2, 8, 64, AccountantChoice.ZCDP).withNoise(NoiseChoice.DISCRETE);
    laws.put("dp-pofw discrete eps 8", DpPofw.lawOf(sharper));
    // At person level the law names k (event-level laws do not, so theirs are unchanged by person-level privacy).
    laws.put("dp-pofw k 3", DpPofw.lawOf(simplex.withParticipations(3)));
    OnlineModelSpec person = data.spec("pin", 1.5, 2, 1, 64, AccountantChoice.ZCDP).withParticipations(3);
    laws.put("dp-tofw k 3", DpTofw.lawOf(person, PrefixSumPlan.choose(person)));
    return laws;
  }

  @Test
  void eachKindOfModelKeepsItsNoiseLaw() {
    Map<String, String> pinned = new LinkedHashMap<>();
    pinned.put("dp-tofw PAPER", "76af8cc201f1cb4b72406b4936554cdb254270b4bd44e7b52844e2a3c41d7b2d");
    pinned.put("dp-tofw ZCDP", "3778659f2ff67c8dadc22c633a897774d029ea3702df06895796d114d6d7bcb1");
    pinned.put("dp-tofw FACTORIZATION", "5da0172628717d41d347cc3551453d7c29e61ea7668c617f7daab5e69ff2b15b");
    pinned.put("dp-tofw AUTO", "8fb9128e46ecfb2a6daa53db43f2a6106624af3156182aa7857ef1793d4ffe9e");
    pinned.put("dp-tofw BLT", "8fb9128e46ecfb2a6daa53db43f2a6106624af3156182aa7857ef1793d4ffe9e");
    pinned.put("dp-tofw adaptive ZCDP", "645e07c1d1d28d485b09f0c2f78772ba05f77ded9014d23ecfca0b2cbb3235e4");
    pinned.put("dp-tofw discrete ZCDP", "cba59762d1e794f4335d8741a2433bf14bbb60ddb8a46c0b2adcd735fe897367");
    pinned.put("dp-tofw adaptive discrete ZCDP", "197de40593ef2a884e88f5d28d9b1a0fe7c44e9cf73e4b11c0e727a7002313de");
    pinned.put("dp-tofw adaptive BLT", "75522c6ef18f023e35bf22a99f1f81dc828e3d6e68840c7f40b01e7efbb9e774");
    pinned.put("dp-tofw discrete BLT", "bc3363f3cc2c876561e74266e1cafcdaeaa3962586b2b211a04dee3373ede8bc");
    pinned.put("dp-tofw adaptive discrete BLT", "1ac52e6e624e4508a8a68d88172e89d6118777722df6706335e7cea9d46832df");
    pinned.put("dp-pofw", "5c4a9dcf81f213eb8f1491443bb81663499e0b1c4ec77aa25414267fabc27ebf");
    pinned.put("dp-pofw discrete", "9566e4fc41f4a4e6d1f88a9373bdfd90262f095fac3b027eb14c95e82b7ffe7d");
    pinned.put("dp-tofw PAPER d 20", "7733215b9505d0a3c5280cb4e49ad76454324db0c39303d6adfe51a00c1dc8e2");
    pinned.put("dp-pofw discrete eps 8", "29568130e73c0c62793b83d7ac1d32fe1b60cb20fc86fd36f893499bc3480509");
    pinned.put("dp-pofw k 3", "b7e3386202658fd1a390bbd25b5415427f1ea328ea1b1336526fb861f6858cf2");
    pinned.put("dp-tofw k 3", "553fb4ef090fec554a1348c8de9d4d03109f9a22143c68ce908c1241f8200cf3");
    Map<String, String> computed = new LinkedHashMap<>();
    laws().forEach((kind, law) -> computed.put(kind, HexFormat.of().formatHex(law)));
    assertEquals(pinned, computed);
  }

  /**
   * A saved state carries its spec's fingerprint, and a restore refuses a state of another fingerprint: a change to
   * the fingerprint of a spec that did not change stops every saved model of that spec at restore.
   */
  @Test
  void specFingerprintsArePinned() {
    OnlineTestData data = new OnlineTestData(3, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(1));
    OnlineModelSpec spec = data.spec("pin", 1.5, 2, 1, 64, AccountantChoice.ZCDP);
    Map<String, String> computed = new LinkedHashMap<>();
    computed.put("event level", HexFormat.of().formatHex(spec.fingerprint()));
    computed.put("adaptive", HexFormat.of().formatHex(
        spec.withIncrementClipping(IncrementClipping.ADAPTIVE).fingerprint()));
    computed.put("k 3", HexFormat.of().formatHex(spec.withParticipations(3).fingerprint()));
    Map<String, String> pinned = new LinkedHashMap<>();
    pinned.put("event level", "e5d23a872229732ce7fa94493294d64e1cf4a3e051971595b15cb1e3173c0130");
    pinned.put("adaptive", "33c7282c19e1b64aaeb33331ca0a821cba601f4940bc4eb0e3eaf122da3c1855");
    pinned.put("k 3", "38e525f6277485fbdb341e5b4384e3e1a8d2ecc6e79d7d799f3b97d30adfb770");
    assertEquals(pinned, computed);
  }
}
