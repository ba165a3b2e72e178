import { hashToken, newOpaqueToken } from '@pagewright/db';
import type { FastifyBaseLogger } from 'fastify';
import {
  FILE_DOWNLOAD_TOKEN_TTL_SECONDS,
  MESSAGES,
  SCREEN_SHARE_MESSAGES,
  type ExtractorType,
  type FileDownloadLink,
  type ScreenShareLink,
  type ScreenShareLiveFrame,
  type ScreenShareView,
} from '@pagewright/shared';
import type { ApiConfig } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import type { Mailer } from '@pagewright/mail';
import { screenShareMail } from './screen-share.mail.js';
import type { ScreenShareRepository } from './screen-share.repository.js';

const HOUR_MS = 3_600_000;

export interface SharedFileContent {
  name: string;
  mimeType: string;
  content: Buffer;
}

/**
 * The live page of the session a share shows, read-only (built by the builder module, which owns
 * live sessions: builder/shared-live-page.ts); null while there is none.
 */
export interface SharedLivePages {
  frame(ref: {
    ownerId: string;
    extractorType: ExtractorType;
    extractorId: string;
    runId: string;
  }): Promise<ScreenShareLiveFrame | null>;
}

interface Deps {
  screenShares: ScreenShareRepository;
  mailer: Mailer;
  config: Pick<ApiConfig, 'PUBLIC_URL' | 'SCREEN_SHARE_TOKEN_TTL_HOURS'>;
  log: FastifyBaseLogger;
  /** Without it no share has a live page (the view falls back to the latest step's picture). */
  livePages?: SharedLivePages;
}

const fullName = (user: { firstName: string; lastName: string }) =>
  `${user.firstName} ${user.lastName}`.trim();

/**
 * Navigator screen shares: the owner mints a link for the navigator's viewer (e-mailed), and
 * whoever holds a live link reads that navigator's run, read-only, and nothing else of its owner.
 */
export function createScreenShareService({ screenShares, mailer, config, log, livePages }: Deps) {
  const linkInvalid = () => new AppError('NOT_FOUND', SCREEN_SHARE_MESSAGES.linkInvalid);
  const contentMissing = () => new AppError('NOT_FOUND', SCREEN_SHARE_MESSAGES.stepContentMissing);

  async function liveShare(token: string) {
    const share = await screenShares.findLiveScreenShare(hashToken(token), new Date());
    if (!share) throw linkInvalid();
    const { extractor } = share;
    const runId = share.runId ?? (await screenShares.findLatestRunId(extractor.userId, extractor.id));
    return { ...share, ownerId: extractor.userId, extractorId: extractor.id, runId };
  }

  async function sharedStepFiles(token: string, sequence: number) {
    const share = await liveShare(token);
    if (!share.runId) throw contentMissing();
    const step = await screenShares.findSharedStepFiles(
      share.ownerId,
      share.extractorId,
      share.runId,
      sequence,
    );
    if (!step) throw contentMissing();
    return { share, step };
  }

  return {
    /**
     * Mints a screen-share link for the caller's navigator (optionally pinned to one of its runs;
     * without one the link shows the navigator's latest run) and e-mails it to the viewer. A mail
     * failure is logged, not thrown: the owner still gets the link to pass on.
     */
    async share(userId: string, extractorId: string, runId: string | null = null): Promise<ScreenShareLink> {
      const navigator = await screenShares.findOwnedNavigator(userId, extractorId);
      if (!navigator) throw AppError.notFound();
      if (runId && !(await screenShares.isRunOfExtractor(userId, extractorId, runId))) {
        throw AppError.notFound();
      }
      const token = newOpaqueToken();
      const expiresAt = new Date(Date.now() + config.SCREEN_SHARE_TOKEN_TTL_HOURS * HOUR_MS);
      await screenShares.createScreenShareToken({
        extractorId,
        runId,
        tokenHash: hashToken(token),
        expiresAt,
      });
      const url = new URL(`/screen-share-viewer/${token}`, config.PUBLIC_URL).toString();
      if (navigator.viewerEmail) {
        const mail = screenShareMail(navigator.viewerEmail, {
          ownerFullName: fullName(navigator.user),
          navigatorName: navigator.name,
          link: url,
          expiresAt,
        });
        await mailer.send(mail).catch((error: unknown) => {
          log.error({ err: error, extractorId }, 'screen-share e-mail could not be sent');
        });
      }
      return { token, url, expiresAt: expiresAt.toISOString() };
    },

    /** Withdraws every working link of the caller's navigator; returns how many. */
    async revoke(userId: string, extractorId: string): Promise<number> {
      if (!(await screenShares.findOwnedNavigator(userId, extractorId))) throw AppError.notFound();
      return screenShares.revokeScreenShareTokens(userId, extractorId, new Date());
    },

    /** GET /extractor/token/:token */
    async view(token: string): Promise<ScreenShareView> {
      const share = await liveShare(token);
      const header = { name: share.extractor.name, userFullName: fullName(share.extractor.user) };
      const run = share.runId
        ? await screenShares.findSharedRun(share.ownerId, share.extractorId, share.runId)
        : null;
      // A link minted as the session opens can be opened before its run has a row.
      if (!run) {
        return {
          ...header,
          status: 'EXECUTING',
          errorMessage: null,
          timestamp: share.createdAt.toISOString(),
          pageUrl: null,
          actions: [],
        };
      }
      const latest = run.steps.reduce<(typeof run.steps)[number] | undefined>(
        (found, step) => (!found || step.timestamp >= found.timestamp ? step : found),
        undefined,
      );
      return {
        ...header,
        status: run.status,
        errorMessage: run.errorMessage,
        timestamp: (latest?.timestamp ?? run.startedAt).toISOString(),
        pageUrl: latest?.pageUrl ?? null,
        actions: run.steps.map((step) => ({
          sequence: step.sequence,
          type: step.actionType,
          label: step.label,
          pageUrl: step.pageUrl,
          timestamp: step.timestamp.toISOString(),
          hasScreen: step.pageScreenshotFileId !== null,
          hasHtml: step.hasNormalizedHtml,
          hasFile: step.fileId !== null,
          fileName: step.file?.name ?? null,
        })),
      };
    },

    /**
     * GET /extractor/token/:token/live: the shared session's page as it looks now, while its owner
     * records that run in the builder; read-only (issue 22: the step pictures are taken as a step
     * ends, before a page that renders late has painted).
     */
    async liveFrame(token: string): Promise<ScreenShareLiveFrame> {
      const share = await liveShare(token);
      const frame =
        share.runId && livePages
          ? await livePages.frame({
              ownerId: share.ownerId,
              extractorType: share.extractor.extractorType,
              extractorId: share.extractorId,
              runId: share.runId,
            })
          : null;
      if (!frame) throw new AppError('NOT_FOUND', SCREEN_SHARE_MESSAGES.noLivePage);
      return frame;
    },

    /** GET /extractor/token/:token/step/:sequence/screen: the page screenshot of that step. */
    async screen(token: string, sequence: number): Promise<SharedFileContent> {
      const { share, step } = await sharedStepFiles(token, sequence);
      const file = step.pageScreenshotFileId
        ? await screenShares.findOwnedFile(share.ownerId, step.pageScreenshotFileId)
        : null;
      if (!file) throw new AppError('NOT_FOUND', MESSAGES['navigator.screenshot.error']);
      return { name: file.name, mimeType: file.mimeType, content: file.content };
    },

    /** GET /extractor/token/:token/step/:sequence/html: untrusted page content, served as text. */
    async normalizedHtml(token: string, sequence: number): Promise<string> {
      const share = await liveShare(token);
      if (!share.runId) throw contentMissing();
      const html = await screenShares.findSharedStepHtml(
        share.ownerId,
        share.extractorId,
        share.runId,
        sequence,
      );
      if (html === null) throw contentMissing();
      return html;
    },

    /** GET /extractor/token/:token/step/:sequence/file: a one-time link to the step's file. */
    async fileLink(token: string, sequence: number): Promise<FileDownloadLink> {
      const { share, step } = await sharedStepFiles(token, sequence);
      if (!step.fileId || !(await screenShares.hasOwnedFileContent(share.ownerId, step.fileId))) {
        throw contentMissing();
      }
      const downloadToken = newOpaqueToken();
      const expiresAt = new Date(Date.now() + FILE_DOWNLOAD_TOKEN_TTL_SECONDS * 1000);
      await screenShares.createFileDownloadToken({
        fileId: step.fileId,
        tokenHash: hashToken(downloadToken),
        expiresAt,
      });
      return { token: downloadToken, url: `/file/${downloadToken}`, expiresAt: expiresAt.toISOString() };
    },

    /** GET /file/:token: the file, once; a second use or an expired link is 404. */
    async download(token: string): Promise<SharedFileContent> {
      const file = await screenShares.claimFileDownload(hashToken(token), new Date());
      if (!file) throw new AppError('NOT_FOUND', SCREEN_SHARE_MESSAGES.downloadLinkInvalid);
      return { name: file.name, mimeType: file.mimeType, content: file.content };
    },
  };
}
export type ScreenShareService = ReturnType<typeof createScreenShareService>;
