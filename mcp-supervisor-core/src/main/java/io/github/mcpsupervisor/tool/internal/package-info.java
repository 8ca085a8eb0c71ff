/**
 * What the tool bridge reports to the auto-configuration: the refused tool names of the
 * servers' first attempts.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.tool.internal;

import org.jspecify.annotations.NullMarked;
