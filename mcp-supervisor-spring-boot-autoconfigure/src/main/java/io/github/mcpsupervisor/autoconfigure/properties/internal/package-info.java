/**
 * How {@code mcp.*} is read, checked and merged: the servers files, the names of the
 * servers, the failure analyses, the one rule of inheritance and the effective settings
 * of each server.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.autoconfigure.properties.internal;

import org.jspecify.annotations.NullMarked;
