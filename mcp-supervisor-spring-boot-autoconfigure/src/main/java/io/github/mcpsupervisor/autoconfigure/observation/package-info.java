/**
 * Auto-configuration of the observations of MCP requests.
 */
@NullMarked
package io.github.mcpsupervisor.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
