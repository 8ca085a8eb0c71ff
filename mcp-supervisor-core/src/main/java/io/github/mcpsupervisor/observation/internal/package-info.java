/**
 * The observer of each request a supervisor sends to its server for the application,
 * which the auto-configuration registers with the application's
 * {@code ObservationRegistry}.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.observation.internal;

import org.jspecify.annotations.NullMarked;
