export { InstancesPage } from './components/instances-page';
export { InstanceFrame } from './components/instance-frame';
export { InstanceEnvironment } from './components/instance-environment';
export { InstanceMonitoring } from './components/instance-monitoring';
