export { NotFound as Component } from '../../components/errors/not-found.tsx';
