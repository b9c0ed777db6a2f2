/**
 * How the service binds every stored state to the noise its releases published: the key ring, the public record of
 * what was published (read at start-up), the decision to resume, start or refuse a model's or bandit's state, the
 * registry of refused states (for /ready and the one log line per state) and the count of states per key (the
 * gauge an operator removes a retired key by). docs/privacy-layer.md, "Keys, noise laws and generations".
 */
package org.dpstream.service.noise;
