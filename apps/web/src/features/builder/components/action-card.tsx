import { memo, useId, useState } from 'react';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import {
  Avatar,
  Box,
  ButtonBase,
  Card,
  CardContent,
  CardHeader,
  IconButton,
  Link,
  Menu,
  MenuItem,
  Typography,
} from '@mui/material';
import { keyframes } from '@mui/material/styles';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { actionTitle } from '../../../lib/action-labels';
import {
  FIELD_ASK_TYPES,
  type ActionType,
  type ActionValidation,
  type BuilderAction,
  type FallbackLocator,
  type PageDialogAnswer,
  type TableDefinition,
} from '@pagewright/shared';

/** Which card menu the builder state allows (spec §4). */
export type CardMenuMode = 'full' | 'cancel' | 'none';

const pulse = keyframes`
  0% { box-shadow: 0 0 0 0 rgba(239, 108, 0, 0.6); }
  70% { box-shadow: 0 0 0 10px rgba(239, 108, 0, 0); }
  100% { box-shadow: 0 0 0 0 rgba(239, 108, 0, 0); }
`;

const VALIDATION_COLOR: Record<ActionValidation, 'success.main' | 'warning.main' | 'error.main'> = {
  SUCCESS: 'success.main',
  NOTVALIDATED: 'warning.main',
  ERROR: 'error.main',
};

export interface ActionCardProps {
  action: BuilderAction;
  /** The element picture (base64 JPEG), null when there is none, undefined while unknown. */
  picture: string | null | undefined;
  /** The action is being changed (its dialog is open): the avatar pulses. */
  isUnfinished: boolean;
  menuMode: CardMenuMode;
  onEdit: (action: BuilderAction) => void;
  onEditSequence: (action: BuilderAction) => void;
  /** Answers its own failures (a toast): the card only starts it. */
  onRemove: (action: BuilderAction) => Promise<void>;
  onCancel: () => void;
  onEnlarge: (action: BuilderAction, picture: string) => void;
}

/** Longest element name a card shows; the selector behind the toggle has the rest. */
const TARGET_NAME_MAX = 60;

function shortened(text: string): string {
  return text.length > TARGET_NAME_MAX ? `${text.slice(0, TARGET_NAME_MAX - 1)}…` : text;
}

/**
 * The element as a person reads it, from the fallbacks recorded with it: its role and accessible
 * name (`button "Log In"`), else its label, else its tag and text. Null when none is recorded.
 */
function readableTarget(fallbacks: readonly FallbackLocator[], t: TFunction): string | null {
  const role = fallbacks.find((fallback) => fallback.kind === 'role');
  if (role) return `${role.role} "${shortened(role.name)}"`;
  const label = fallbacks.find((fallback) => fallback.kind === 'label');
  if (label) return t('builder.card.target.label', { label: shortened(label.value) });
  const text = fallbacks.find((fallback) => fallback.kind === 'text');
  if (text) return `${text.tagName ?? 'text'} "${shortened(text.value)}"`;
  return null;
}

/** An ANSWER_DIALOG card reads like the dialog it answers, with the answer given. */
function dialogAnswerText(dialog: PageDialogAnswer, t: TFunction): string {
  const message = shortened(dialog.message.trim());
  if (dialog.type === 'beforeunload')
    return t('builder.card.dialog.leave', {
      choice: t(dialog.accept ? 'builder.pageDialog.leave' : 'builder.pageDialog.stay'),
    });
  if (dialog.type === 'alert') return t('builder.card.dialog.alert', { message });
  if (!dialog.accept) return t('builder.card.dialog.dismiss', { message });
  if (dialog.type === 'prompt')
    return t('builder.card.dialog.prompt', { message, text: shortened(dialog.promptText ?? '') });
  return t('builder.card.dialog.accept', { message });
}

/**
 * What the subheader says about an action: its label, then where it acts (the element as a person
 * reads it, else its CSS path).
 */
function subheaderOf(action: BuilderAction, target: string | null, t: TFunction): string {
  const parts: string[] = [];
  if (action.label) parts.push(action.label);
  if (action.type === 'NAVIGATE' && action.textValue)
    parts.push(t('builder.card.url', { url: action.textValue }));
  if (action.options.dialog) parts.push(dialogAnswerText(action.options.dialog, t));
  if (action.type === 'CHECK_TEXT' && action.textValue)
    parts.push(t('builder.card.expects', { text: shortened(action.textValue) }));
  if (action.type === 'TYPE_F_ENGINE_FIELD' && action.textValue)
    parts.push(t('builder.card.engine.field', { field: action.textValue }));
  if ((action.type === 'SCROLL_DOWN' || action.type === 'SCROLL_UP') && action.options.number)
    parts.push(t('builder.card.scroll.by', { pixels: action.options.number }));
  const point = action.options.point;
  if (point) parts.push(t('builder.card.point', { x: Math.round(point.x), y: Math.round(point.y) }));
  const table = action.options.table;
  if (table) parts.push(...tableSummary(table, t));
  if (target) parts.push(target);
  else if (action.selectorValue) parts.push(action.selectorValue);
  return parts.join(' · ');
}

/** A Get table as its card tells it: columns by label, rows when picked, pages it reads. */
function tableSummary(table: TableDefinition, t: TFunction): string[] {
  const labels = table.columns.map((column) => column.label).join(', ');
  return [
    t('builder.card.table.columns', { count: table.columns.length, labels }),
    ...(table.rowsSeen === undefined ? [] : [t('builder.card.table.rows', { count: table.rowsSeen })]),
    ...(table.nextPageSelector && table.maxPages > 1
      ? [t('builder.card.table.pages', { count: table.maxPages })]
      : []),
  ];
}

/**
 * One action of the flow (spec §2): sequence avatar (pulsing while unfinished), type, subheader,
 * element picture (click to enlarge) or its status, coloured by its validation. Memoized: a card
 * re-renders only when its own action, picture or menu changes.
 */
export const ActionCard = memo(function ActionCard(props: ActionCardProps) {
  const { t } = useTranslation();
  const { action, picture, menuMode } = props;
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [isSelectorShown, setSelectorShown] = useState(false);
  const selectorId = useId();
  const color = VALIDATION_COLOR[action.validation];
  const isBoundToStep = action.type === 'ANSWER_DIALOG';
  const title = actionTitle(action.type, t);
  const target = readableTarget(action.fallbackLocators, t);
  // The CSS path is one click away when the subheader names the element another way.
  const hiddenSelector = target ? action.selectorValue : null;
  const closeMenu = () => setMenuAnchor(null);
  const choose = (run: () => void) => () => {
    closeMenu();
    run();
  };

  return (
    <Card
      component="li"
      data-testid={`action-card-${action.sequence}`}
      data-validation={action.validation}
      aria-label={`${action.sequence} ${title}`}
      sx={{
        borderLeft: 4,
        borderLeftColor: color,
        listStyle: 'none',
        // Off-screen cards skip layout and paint: long flows stay smooth.
        contentVisibility: 'auto',
        containIntrinsicSize: 'auto 120px',
      }}
    >
      <CardHeader
        avatar={
          <Avatar
            sx={{
              bgcolor: color,
              width: 36,
              height: 36,
              fontSize: 13,
              animation: props.isUnfinished ? `${pulse} 1.4s infinite` : undefined,
            }}
          >
            {action.sequence}
          </Avatar>
        }
        title={title}
        subheader={subheaderOf(action, target, t) || null}
        slotProps={{
          title: { variant: 'subtitle2', component: 'h3' },
          subheader: { variant: 'caption', sx: { wordBreak: 'break-all' } },
        }}
        action={
          menuMode === 'none' ? null : (
            <IconButton
              aria-label={t('builder.card.menu', { sequence: action.sequence })}
              aria-haspopup="menu"
              onClick={(event) => setMenuAnchor(event.currentTarget)}
              size="small"
            >
              <MoreVertIcon fontSize="small" />
            </IconButton>
          )
        }
        sx={{ py: 1 }}
      />
      <Menu anchorEl={menuAnchor} open={menuAnchor !== null} onClose={closeMenu}>
        {menuMode === 'full'
          ? [
              // An answer belongs to the step before it: it is recorded again, never edited or moved.
              ...(isBoundToStep
                ? []
                : [
                    <MenuItem key="edit" onClick={choose(() => props.onEdit(action))}>
                      {t('builder.card.edit')}
                    </MenuItem>,
                    <MenuItem key="sequence" onClick={choose(() => props.onEditSequence(action))}>
                      {t('builder.card.sequence')}
                    </MenuItem>,
                  ]),
              <MenuItem key="remove" onClick={choose(() => void props.onRemove(action))}>
                {t('builder.card.remove')}
              </MenuItem>,
            ]
          : [
              <MenuItem key="cancel" onClick={choose(props.onCancel)}>
                {t('builder.card.cancel')}
              </MenuItem>,
            ]}
      </Menu>
      <CardContent sx={{ pt: 0, '&:last-child': { pb: 1.5 } }}>
        {hiddenSelector && (
          <Box sx={{ mb: 0.5 }}>
            <Link
              component="button"
              type="button"
              variant="caption"
              aria-expanded={isSelectorShown}
              aria-controls={isSelectorShown ? selectorId : undefined}
              onClick={() => setSelectorShown((shown) => !shown)}
            >
              {t(isSelectorShown ? 'builder.card.selector.hide' : 'builder.card.selector.show')}
            </Link>
            {isSelectorShown && (
              <Typography
                id={selectorId}
                variant="caption"
                component="code"
                sx={{
                  display: 'block',
                  fontFamily: 'monospace',
                  wordBreak: 'break-all',
                  color: 'text.secondary',
                }}
              >
                {hiddenSelector}
              </Typography>
            )}
          </Box>
        )}
        {action.validation === 'ERROR' && (
          <Typography variant="body2" color="error" role="alert" sx={{ wordBreak: 'break-word' }}>
            {action.errorMessage}
          </Typography>
        )}
        {action.validation === 'NOTVALIDATED' && (
          <Typography variant="body2" sx={{ color: 'warning.dark' }}>
            {t('builder.card.not.validated')}
          </Typography>
        )}
        {FIELD_ASK_TYPES.includes(action.type) && !action.selectorValue && (
          <Typography variant="body2" role="alert" sx={{ color: 'warning.dark' }}>
            {t('builder.card.ask.no.field')}
          </Typography>
        )}
        {picture && (
          <ButtonBase
            aria-label={t('builder.card.enlarge', { sequence: action.sequence })}
            onClick={() => props.onEnlarge(action, picture)}
            sx={{ mt: 1, display: 'block', maxWidth: '100%', borderRadius: 1, overflow: 'hidden' }}
          >
            <Box
              component="img"
              src={`data:image/jpeg;base64,${picture}`}
              alt=""
              loading="lazy"
              decoding="async"
              sx={{ display: 'block', maxWidth: '100%', maxHeight: 96, objectFit: 'contain' }}
            />
          </ButtonBase>
        )}
      </CardContent>
    </Card>
  );
});

/** The card of an action the page is running now (it has no sequence from the server yet). */
export function PendingActionCard({ type, sequence }: { type: ActionType; sequence: number | null }) {
  const { t } = useTranslation();
  return (
    <Card
      component="li"
      data-testid="action-card-pending"
      sx={{ borderLeft: 4, borderLeftColor: 'grey.400', listStyle: 'none' }}
    >
      <CardHeader
        avatar={
          <Avatar
            sx={{
              bgcolor: 'primary.main',
              width: 36,
              height: 36,
              fontSize: 13,
              animation: `${pulse} 1.4s infinite`,
            }}
          >
            {sequence ?? '…'}
          </Avatar>
        }
        title={actionTitle(type, t)}
        subheader={t('builder.card.running')}
        slotProps={{ title: { variant: 'subtitle2', component: 'h3' }, subheader: { variant: 'caption' } }}
        sx={{ py: 1 }}
      />
    </Card>
  );
}
