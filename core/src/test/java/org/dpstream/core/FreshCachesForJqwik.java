package org.dpstream.core;

import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import net.jqwik.api.lifecycle.BeforeContainerHook;
import net.jqwik.api.lifecycle.ContainerLifecycleContext;
import net.jqwik.api.lifecycle.PropagationMode;

/** {@link FreshCaches} for jqwik's test classes: empties core's static caches before each of them. */
public final class FreshCachesForJqwik implements BeforeContainerHook {

  public FreshCachesForJqwik() {}

  @Override
  public void beforeContainer(ContainerLifecycleContext context) {
    FreshCaches.clearAll();
  }

  @Override
  public boolean appliesTo(Optional<AnnotatedElement> element) {
    return element.filter(Class.class::isInstance).isPresent();
  }

  @Override
  public PropagationMode propagateTo() {
    return PropagationMode.ALL_DESCENDANTS;
  }
}
