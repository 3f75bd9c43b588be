import type { Endpoint } from '@portico/model';
import type { ComponentType } from 'react';
import type { TranslationKey } from '../../shared/i18n/keys';
import type { Place } from './proxy-model';
import { EndpointHealthTab } from '../health/endpoint-health-tab';

/** What a further tab of the endpoint editor receives: the endpoint as edited, and its change. */
export interface EndpointTabProps {
  endpoint: Endpoint;
  place: Place;
  readOnly: boolean;
  onChange: (next: Endpoint) => void;
}

/**
 * Further tabs of the endpoint editor, after General and HTTP configuration: each feature registers its
 * tab here (one line) with its own component.
 */
export const ENDPOINT_TABS: readonly {
  value: string;
  label: TranslationKey;
  Panel: ComponentType<EndpointTabProps>;
}[] = [{ value: 'healthcheck', label: 'apiHealth.menu', Panel: EndpointHealthTab }];
