/**
 * The publisher of the supervisors' application events, a {@code SupervisorListener} that
 * the auto-configuration registers.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.event.internal;

import org.jspecify.annotations.NullMarked;
