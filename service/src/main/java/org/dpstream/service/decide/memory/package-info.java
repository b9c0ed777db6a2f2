/**
 * What the deciders remember of the decisions they made (a request id decided again gets the same
 * decision): {@link org.dpstream.service.decide.memory.DecisionMemory}, its open-addressing index and
 * the 128-bit digests of request ids and contexts it keys by.
 */
package org.dpstream.service.decide.memory;
