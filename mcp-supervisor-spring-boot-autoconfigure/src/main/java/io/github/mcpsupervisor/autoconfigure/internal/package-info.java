/**
 * What the auto-configuration's tests and its own modules plug in: how each configured
 * server's connector is made.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.autoconfigure.internal;

import org.jspecify.annotations.NullMarked;
