/**
 * What the auto-configuration needs of the supervisors beyond their API: the set of
 * servers changed while the application runs.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.supervisor.internal;

import org.jspecify.annotations.NullMarked;
