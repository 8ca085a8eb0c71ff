/**
 * Stdio servers: ownership of their processes (spawning, exit detection, stderr
 * diagnostics, bounded termination of the whole process tree, records of the processes of
 * earlier runs) and the transport of each revision over a generation's process.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.transport.internal.stdio;

import org.jspecify.annotations.NullMarked;
