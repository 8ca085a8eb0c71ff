/**
 * Helpers that several packages share: walking a failure's cause chain, bounding text
 * that a server controls, masking secrets in configuration.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.internal;

import org.jspecify.annotations.NullMarked;
