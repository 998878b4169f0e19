// What the dispatcher hands the pipeline for one request (its own module: the pipeline and authentication both read it).
import type { IncomingHttpHeaders } from 'node:http';

export interface PipelineInput {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  params: Record<string, string>;
  body: unknown;
  requestId: string;
  clientAddress: string;
}
