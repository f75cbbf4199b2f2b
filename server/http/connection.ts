import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './errors.ts';

/**
 * A 413 leaves the rest of the body unread on the socket, so the server closes the connection after answering:
 * the answer says so (`Connection: close`), or a keep-alive client would send its next request into a closed socket.
 */
export function closeAfterRefusedBody(response: Response): Response {
  if (response.status === 413) response.headers.set('connection', 'close');
  return response;
}

/**
 * Requests Node's HTTP parser refuses before any route sees them (a head over the size limit, malformed HTTP) answer
 * the error body too, instead of Node's bare status line.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const message = status === 431 ? 'The request head (URL and headers) is larger than the server accepts' : 'The request is not valid HTTP';
    const body = JSON.stringify(errorBody(status, message));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
