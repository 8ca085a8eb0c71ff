/**
 * Helpers that several packages share: walking a failure's cause chain, bounding text
 * that a server controls, masking secrets in configuration, running the listeners'
 * callbacks off the supervisors' threads, and the hook that observes the requests a
 * supervisor sends for the application.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.internal;

import org.jspecify.annotations.NullMarked;
