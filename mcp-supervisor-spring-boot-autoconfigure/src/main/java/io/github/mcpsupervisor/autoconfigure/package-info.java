/**
 * Auto-configuration and configuration properties of mcp-supervisor.
 */
@NullMarked
package io.github.mcpsupervisor.autoconfigure;

import org.jspecify.annotations.NullMarked;
