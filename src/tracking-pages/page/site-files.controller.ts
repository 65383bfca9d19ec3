import { Controller } from '@nestjs/common';
import { Action } from '../../hydra/actions/action.decorator';
import type { SentFile } from '../../hydra/actions/action-result';
import { DEFAULT_FAVICON, ROBOTS_TXT } from './site-files';

/**
 * The files browsers and crawlers ask every site for, on the API host and every tracking
 * site alike (README "API conventions"): without them each page view logs a 404.
 */
@Controller()
export class SiteFilesController {
  @Action({
    method: 'GET',
    path: '/robots.txt',
    summary: 'Tells crawlers what not to index.',
    description:
      'Capability links (tracking page links, `/public/` and media) and account pages are disallowed.',
    output: { file: ['text/plain'] },
    tags: ['TrackingSite'],
    access: 'public',
  })
  robots(): SentFile {
    return {
      type: 'text/plain; charset=utf-8',
      body: Buffer.from(ROBOTS_TXT),
      headers: { 'Cache-Control': 'public, max-age=86400' },
    };
  }

  @Action({
    method: 'GET',
    path: '/favicon.ico',
    summary: 'The default icon of the tracking pages.',
    description: 'Pages with a brand logo name it as their icon instead.',
    output: { file: ['image/x-icon'] },
    tags: ['TrackingSite'],
    access: 'public',
  })
  favicon(): SentFile {
    return {
      type: 'image/x-icon',
      body: DEFAULT_FAVICON,
      headers: { 'Cache-Control': 'public, max-age=604800' },
    };
  }
}
