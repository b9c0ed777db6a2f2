/**
 * What the deciders write and the Kafka path they read: {@link
 * org.dpstream.service.decide.producer.DecisionService} decides a request, remembers it and logs it (the
 * decision with its context to learning, the decision to dp.decisions, rewards to dp.rewards) with one
 * idempotent producer; {@link org.dpstream.service.decide.producer.ContextDecider} decides the requests on
 * dp.contexts through it, at least once.
 */
package org.dpstream.service.decide.producer;
