/**
 * Configuration properties of mcp-supervisor ({@code mcp.*}): their binding, the server
 * files added to them, their validation and failure analysis, and their resolution into
 * the effective settings of each server.
 */
@NullMarked
package io.github.mcpsupervisor.autoconfigure.properties;

import org.jspecify.annotations.NullMarked;
